/// How long a cycle took, for the end summary.
public enum DurationText {
    /// Rounded down to the minute: "2 h 14 min", "2 h" on the hour, "45 min" under
    /// an hour, with the units from `texts.hours` and `texts.minutes`.
    public static func format(seconds: Double, texts: Texts) -> String {
        let minutes = seconds > 0 ? NumberText.int(seconds / 60) ?? 0 : 0
        let hours = minutes / 60
        let rest = minutes % 60
        if hours == 0 { return "\(rest) \(texts.minutes)" }
        if rest == 0 { return "\(hours) \(texts.hours)" }
        return "\(hours) \(texts.hours) \(rest) \(texts.minutes)"
    }
}
