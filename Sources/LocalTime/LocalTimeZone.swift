import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The local time zone for the tables `query`, `stats` and `demo` print, the history
/// page, and bare dates in `--since`/`--until`: `$TZ` (a zone name such as
/// `Europe/Berlin`, `:Europe/Berlin`, a path to a zone file, or a POSIX rule such as
/// `CET-1CEST,M3.5.0,M10.5.0/3`; the add-on gets it from the Supervisor), else
/// `/etc/localtime`, else UTC.
///
/// The C library reads the zone (`tzset`, `localtime_r`: zone files and POSIX rules,
/// and times past a file's last transition by its footer rule), not
/// `TimeZone(identifier:)`: without FoundationInternationalization (and its ICU data,
/// tens of megabytes the binary does without) that knows only UTC and fixed offsets.
/// A `$TZ` that names no zone reads as UTC, as the C library has it, and says so in
/// ``isKnown``.
public struct LocalTimeZone: Sendable, Equatable {
    /// `Europe/Berlin`, `UTC`, `UTC+01:00`, or the unknown value of `$TZ` as it was given.
    public let name: String
    /// False when `$TZ` names no zone file and is no POSIX rule: the times are then UTC.
    public let isKnown: Bool
    private let source: Source

    /// The value of `$TZ` that names no zone (the times are UTC), or nil when the zone is known.
    public var unreadable: String? { isKnown ? nil : name }

    private enum Source: Sendable, Equatable {
        /// Always this many seconds east of UTC.
        case fixed(Int)
        /// The C library's zone for this value of `TZ`.
        case system(tz: String)
    }

    /// A zone that is always `seconds` east of UTC.
    public static func fixed(secondsFromGMT seconds: Int) -> LocalTimeZone {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let name = seconds == 0 ? "UTC" : "UTC\(sign)\(pad(minutes / 60)):\(pad(minutes % 60))"
        return LocalTimeZone(name: name, isKnown: true, source: .fixed(seconds))
    }

    public static let utc = fixed(secondsFromGMT: 0)

    /// The zone of this process's environment.
    public static var current: LocalTimeZone { resolve(environment: ProcessInfo.processInfo.environment) }

    /// The zone `environment` names (its `TZ` and `TZDIR`, as the C library reads them;
    /// an empty `TZ` is UTC).
    public static func resolve(environment: [String: String]) -> LocalTimeZone {
        guard let tz = environment["TZ"] else {
            let localtime = SystemLocalTime.defaultZoneFile
            guard SystemLocalTime.isZoneFile(localtime) else { return .utc }
            return LocalTimeZone(name: zoneName(localtime), isKnown: true, source: .system(tz: localtime))
        }
        let text = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        // An empty TZ is UTC to the C library.
        if text.isEmpty { return .utc }
        if ["UTC", "GMT", "UTC0", "GMT0", "Etc/UTC", "Etc/GMT", "Z"].contains(text) { return .utc }
        let folder = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        let path = text.hasPrefix("/") ? text : folder + "/" + text
        if !text.contains(".."), SystemLocalTime.isZoneFile(path) {
            return LocalTimeZone(name: text.hasPrefix("/") ? zoneName(path) : text, isKnown: true, source: .system(tz: tz))
        }
        if SystemLocalTime.isPosixRule(text) {
            return LocalTimeZone(name: text, isKnown: true, source: .system(tz: tz))
        }
        return LocalTimeZone(name: text, isKnown: false, source: .fixed(0))
    }

    /// Seconds east of UTC at `date`.
    public func secondsFromGMT(for date: Date) -> Int {
        switch source {
        case .fixed(let seconds): seconds
        case .system(let tz): SystemLocalTime.secondsFromGMT(at: NumberText.int(date.timeIntervalSince1970, .down) ?? 0, tz: tz)
        }
    }

    /// A fixed-offset `TimeZone` that agrees with this zone at `date`, for a calendar.
    public func timeZone(for date: Date) -> TimeZone {
        TimeZone(secondsFromGMT: secondsFromGMT(for: date)) ?? .gmt
    }

    /// The instant at which the local clock shows `wall` (a date whose UTC reading is the
    /// local wall time). In a gap (spring forward) the clock time is read with the offset
    /// before the change; in an overlap (fall back), the first of the two.
    public func instant(wallClock wall: Date) -> Date {
        let before = secondsFromGMT(for: wall.addingTimeInterval(-86_400))
        let after = secondsFromGMT(for: wall.addingTimeInterval(86_400))
        let early = wall.addingTimeInterval(-Double(before))
        if secondsFromGMT(for: early) == before { return early }
        return wall.addingTimeInterval(-Double(after))
    }

    /// `Europe/Berlin` for `/etc/localtime -> /usr/share/zoneinfo/Europe/Berlin`.
    private static func zoneName(_ path: String) -> String {
        var target = path
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        if count > 0 {
            target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if let range = target.firstRange(of: "zoneinfo/") { return String(target[range.upperBound...]) }
        if let text = FileManager.default.contents(atPath: "/etc/timezone") {
            let name = String(String(decoding: text, as: UTF8.self).filter { !$0.isWhitespace })
            if !name.isEmpty { return name }
        }
        return "local"
    }

    private static func pad(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
}
