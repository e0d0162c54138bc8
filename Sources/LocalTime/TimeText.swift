import CycleCore
import FoundationEssentials

/// How `query`, `stats` and the history page write times and durations.
public enum TimeText {
    /// `2026-11-02 08:02` in `timeZone`, for the table.
    public static func local(_ date: Date, timeZone: LocalTimeZone) -> String {
        local(date, timeZone: timeZone.timeZone(for: date))
    }

    /// `2026-11-02 08:02` in a fixed `timeZone`.
    public static func local(_ date: Date, timeZone: TimeZone) -> String {
        let parts = components(date, timeZone: timeZone)
        return "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day)) \(pad(parts.hour)):\(pad(parts.minute))"
    }

    /// `2026-11-02T08:02:00Z`, whole seconds (truncated), for JSON and CSV.
    public static func isoUTC(_ date: Date) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let parts = components(whole, timeZone: .gmt)
        return "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day))T\(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))Z"
    }

    /// The ISO week of `date` in `timeZone`: `2026-W45`.
    public static func isoWeek(_ date: Date, timeZone: LocalTimeZone) -> String {
        isoWeek(date, timeZone: timeZone.timeZone(for: date))
    }

    /// The ISO week of `date` in a fixed `timeZone`.
    public static func isoWeek(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        return "\(pad(parts.yearForWeekOfYear ?? 0, 4))-W\(pad(parts.weekOfYear ?? 0))"
    }

    /// `2 h 14 min`, `45 min`, `2 h`: rounded down to the minute, as the end notification
    /// says it (the core's `DurationText`, with the default units).
    public static func duration(_ seconds: TimeInterval) -> String {
        let text = DurationText.format(seconds: abs(seconds), texts: Texts())
        return seconds <= -60 ? "-" + text : text
    }

    /// `+4 min`, `-12 min`, `0 min`, `+1 h 5 min`: a signed difference.
    public static func signedDuration(_ seconds: TimeInterval) -> String {
        let text = duration(seconds)
        return text.hasPrefix("-") || text == "0 min" ? text : "+" + text
    }

    /// `value` with exactly `decimals` digits after the point (`0.82`, `12.00`).
    public static func fixed(_ value: Double, decimals: Int) -> String {
        NumberText.fixed(value, decimals: decimals)
    }

    private static func components(_ date: Date, timeZone: TimeZone) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

    private static func pad(_ number: Int, _ width: Int = 2) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
