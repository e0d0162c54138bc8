/// The `notification_icon` of an appliance whose configuration names none.
public enum ApplianceIcon {
    /// From the program key's prefix, else from words in the appliance's name
    /// (English and German), else `mdi:progress-clock`.
    public static func guess(programKey: String?, name: String) -> String {
        if let key = programKey?.lowercased(),
           let match = prefixes.first(where: { key.hasPrefix($0.prefix) }) {
            return match.icon
        }
        let lowered = name.lowercased()
        if let match = words.first(where: { entry in entry.words.contains { lowered.contains($0) } }) {
            return match.icon
        }
        return "mdi:progress-clock"
    }

    // Longest prefix first: a washer-dryer key also starts with the washer's prefix.
    private static let prefixes: [(prefix: String, icon: String)] = [
        ("laundry_care_washer_dryer", "mdi:washing-machine"),
        ("dishcare_dishwasher", "mdi:dishwasher"),
        ("laundry_care_washer", "mdi:washing-machine"),
        ("laundry_care_dryer", "mdi:tumble-dryer"),
        ("cooking_oven", "mdi:stove"),
        ("consumer_products_coffee_maker", "mdi:coffee-maker"),
    ]

    // "dish" before "wash": a dishwasher's name contains both.
    private static let words: [(words: [String], icon: String)] = [
        (["dish", "geschirr", "spül"], "mdi:dishwasher"),
        (["wash", "wasch"], "mdi:washing-machine"),
        (["dry", "dries", "trockn"], "mdi:tumble-dryer"),
        (["oven", "ofen", "cook", "herd", "stove"], "mdi:stove"),
        (["coffee", "kaffee", "espresso"], "mdi:coffee-maker"),
        (["fridge", "freezer", "kühl"], "mdi:fridge"),
    ]
}
