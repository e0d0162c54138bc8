import FoundationEssentials

/// The local clock the core reads quiet hours on: the offset from UTC at any instant.
/// The core has no time zone of its own; the world hands it this function (built from
/// `$TZ` and the zone files, the same conversion `query` uses), and replay the same.
public struct LocalClock: Sendable {
    /// Seconds east of UTC at an instant.
    public var secondsFromGMT: @Sendable (Date) -> Int

    public init(secondsFromGMT: @escaping @Sendable (Date) -> Int) {
        self.secondsFromGMT = secondsFromGMT
    }

    public static let utc = LocalClock { _ in 0 }

    /// The wall-clock reading at `date`, as seconds since 1970-01-01 00:00 local.
    func wall(_ date: Date) -> Double {
        date.timeIntervalSince1970 + Double(secondsFromGMT(date))
    }

    /// The instant the local clock shows `wall` (seconds since 1970-01-01 00:00 local). In a
    /// gap (spring forward) it is read with the offset before the change; in an overlap
    /// (fall back), the first of the two.
    func instant(wall: Double) -> Date {
        let before = secondsFromGMT(Date(timeIntervalSince1970: wall - 86_400))
        let after = secondsFromGMT(Date(timeIntervalSince1970: wall + 86_400))
        let early = Date(timeIntervalSince1970: wall - Double(before))
        let late = Date(timeIntervalSince1970: wall - Double(after))
        if secondsFromGMT(early) == before || secondsFromGMT(late) != after { return early }
        return late
    }
}

/// A daily local-time window in which nothing that alerts goes out (docs/PUSHES.md,
/// "Quiet hours"): `22:00-07:00` runs across midnight, `13:00-15:00` within a day.
public struct QuietHours: Sendable, Equatable, Codable {
    /// Minutes after local midnight, 0..<1440; `start != end`.
    public var start: Int
    public var end: Int

    public init?(start: Int, end: Int) {
        guard (0..<1440).contains(start), (0..<1440).contains(end), start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// Reads `HH:MM-HH:MM` (24-hour clock); nil for anything else or an empty window.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = QuietHours.minutes(parts[0]), let end = QuietHours.minutes(parts[1]) else {
            return nil
        }
        self.init(start: start, end: end)
    }

    /// `22:00-07:00`.
    public var text: String { "\(QuietHours.clock(start))-\(QuietHours.clock(end))" }

    /// Whether `date` falls in the window on `clock`.
    public func contains(_ date: Date, clock: LocalClock) -> Bool {
        let minute = QuietHours.minuteOfDay(clock.wall(date))
        return start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }

    /// When the window that holds `date` ends; `date` itself when it is outside.
    public func end(after date: Date, clock: LocalClock) -> Date {
        guard contains(date, clock: clock) else { return date }
        let wall = clock.wall(date)
        let midnight = (wall / 86_400).rounded(.down) * 86_400
        var endWall = midnight + Double(end) * 60
        if endWall <= wall { endWall += 86_400 }
        let instant = clock.instant(wall: endWall)
        // A window ending in a spring-forward gap is read before the change; never before `date`.
        return instant > date ? instant : date.addingTimeInterval(60)
    }

    private static func minuteOfDay(_ wall: Double) -> Int {
        let seconds = wall - (wall / 86_400).rounded(.down) * 86_400
        return min(1439, max(0, NumberText.int(seconds / 60, .down) ?? 0))
    }

    private static func minutes(_ text: Substring) -> Int? {
        let parts = String(text).trimmingASCIISpaces().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), (0...23).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    private static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}

/// A per-appliance or per-person setting over the household's quiet hours.
public enum QuietOverride: Sendable, Equatable, Codable {
    /// No quiet hours for this appliance or person.
    case off
    case window(QuietHours)

    /// The window that applies: this override, else `fallback`.
    static func resolve(_ override: QuietOverride?, over fallback: QuietHours?) -> QuietHours? {
        switch override {
        case nil: fallback
        case .off?: nil
        case .window(let window)?: window
        }
    }
}
