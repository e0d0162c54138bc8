/// A display name for an appliance configured by id alone.
public enum ApplianceName {
    /// `dish_washer` → "Dish washer"; `dishwasher` → "Dishwasher".
    public static func readable(id: String) -> String {
        let words = id.split(whereSeparator: { $0 == "_" || $0 == "-" }).joined(separator: " ")
        guard let first = words.first else { return id }
        return first.uppercased() + words.dropFirst()
    }
}
