import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
import LocalTime

/// The WHEN of `--since` and `--until`: an ISO date (`2026-11-02`, local midnight),
/// an ISO date-time (`2026-11-02T08:02:00Z`, `2026-11-02T09:02+01:00`, or without a
/// zone for local time), or a time relative to now (`30m`, `12h`, `7d`, `2w` ago).
enum TimeArgument {
    /// Which end of a range the time bounds: a bare date as `--until` means the end of that day.
    enum Bound { case start, end }

    private static let expected =
        "expected an ISO date (2026-11-02), an ISO date-time (2026-11-02T08:02:00Z, 2026-11-02T09:02:00+01:00) or a relative time (30m, 12h, 7d, 2w)"

    /// Parses `text`, given to `--option`, or throws a usage error (exit 64) naming both.
    static func parse(_ text: String, option: String, bound: Bound, now: Date, timeZone: LocalTimeZone) throws(CommandError) -> Date {
        if let relative = relative(text) {
            return now.addingTimeInterval(-relative)
        }
        if let date = iso(text, bound: bound, timeZone: timeZone) {
            return date
        }
        throw .usage("--\(option) \(expected), got '\(text)'")
    }

    /// Seconds ago for `7d`-style text.
    private static func relative(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let count = Int(text.dropLast()), count >= 0, !text.dropLast().hasPrefix("+") else { return nil }
        let seconds: TimeInterval
        switch unit {
        case "m": seconds = 60
        case "h": seconds = 3_600
        case "d": seconds = 86_400
        case "w": seconds = 7 * 86_400
        default: return nil
        }
        return Double(count) * seconds
    }

    private static func iso(_ text: String, bound: Bound, timeZone: LocalTimeZone) -> Date? {
        let pattern = #/(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?/#
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        let output = match.output
        guard let year = Int(output.1), let month = Int(output.2), let day = Int(output.3) else { return nil }
        // Read as UTC first; a local time is moved by the zone's offset at that time.
        var zone = TimeZone.gmt
        if let offset = output.8 {
            guard let seconds = offsetSeconds(String(offset)), let fixed = TimeZone(secondsFromGMT: seconds) else { return nil }
            zone = fixed
        }
        let local = output.8 == nil
        let hour = output.4.flatMap { Int($0) } ?? 0
        let minute = output.5.flatMap { Int($0) } ?? 0
        let second = output.6.flatMap { Int($0) } ?? 0
        let fraction = output.7.flatMap { Double("0." + $0) } ?? 0
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components) else { return nil }
        // The calendar is lenient (February 30 becomes March 2): insist on a round trip.
        let back = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard back.year == year, back.month == month, back.day == day, back.hour == hour, back.minute == minute else { return nil }
        var wall = date
        if output.4 == nil, bound == .end {
            guard let next = calendar.date(byAdding: .day, value: 1, to: date) else { return nil }
            wall = next
        }
        let instant = local ? timeZone.instant(wallClock: wall) : wall
        return instant.addingTimeInterval(fraction)
    }

    /// `Z`, `+01:00`, `-0530`, `+02` as seconds east of UTC.
    private static func offsetSeconds(_ text: String) -> Int? {
        if text == "Z" || text == "z" { return 0 }
        let sign = text.hasPrefix("-") ? -1 : 1
        let digits = text.dropFirst().filter(\.isNumber)
        guard let hours = Int(digits.prefix(2)) else { return nil }
        let minutes = digits.count > 2 ? Int(digits.dropFirst(2)) ?? 99 : 0
        guard hours <= 23, minutes <= 59 else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}
