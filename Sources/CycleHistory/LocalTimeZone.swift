import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The local time zone for the tables `query`, `stats` and `demo` print and for bare
/// dates in `--since`/`--until`: `$TZ` (a zone name such as `Europe/Berlin`, `:Europe/Berlin`
/// or a path to a zone file; the add-on gets it from the Supervisor), else
/// `/etc/localtime`, else UTC.
///
/// Read here from the system's zone files (TZif, RFC 8536) rather than through
/// `TimeZone(identifier:)`: without FoundationInternationalization (and its ICU data,
/// tens of megabytes the binary does without) that knows only UTC and fixed offsets.
/// Times past a file's last transition use its footer rule (`CET-1CEST,M3.5.0,M10.5.0/3`),
/// so "slim" zone files work too.
public struct LocalTimeZone: Sendable, Equatable {
    /// `Europe/Berlin`, `UTC`, `UTC+01:00`.
    public let name: String
    /// The `TZ` value that names no zone this system can read, when UTC stands in for it
    /// (as the C library does): for `check` and the history page to say so.
    public private(set) var unreadable: String?
    /// UTC seconds at which the offset changes, ascending, and the offset from each on.
    private let transitions: [Int64]
    private let offsets: [Int]
    /// The offset before the first transition.
    private let initialOffset: Int
    /// The rule for times after the last transition, when the file has one.
    private let rule: PosixRule?

    /// A zone that is always `seconds` east of UTC.
    public static func fixed(secondsFromGMT seconds: Int) -> LocalTimeZone {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let name = seconds == 0 ? "UTC" : "UTC\(sign)\(pad(minutes / 60)):\(pad(minutes % 60))"
        return LocalTimeZone(name: name, transitions: [], offsets: [], initialOffset: seconds, rule: nil)
    }

    public static let utc = fixed(secondsFromGMT: 0)

    private init(name: String, transitions: [Int64], offsets: [Int], initialOffset: Int, rule: PosixRule?) {
        self.name = name
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// The zone the process's environment names; UTC when it names none that can be read.
    /// - Parameters:
    ///   - zoneinfo: where zone files live (`$TZDIR`, else `/usr/share/zoneinfo`).
    ///   - localtime: the system's zone file.
    public static func resolve(
        environment: [String: String], zoneinfo: String? = nil, localtime: String = "/etc/localtime"
    ) -> LocalTimeZone {
        let folder = zoneinfo ?? environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        if var text = environment["TZ"], !text.isEmpty {
            if text.hasPrefix(":") { text.removeFirst() }
            if ["UTC", "GMT", "UTC0", "GMT0", "Etc/UTC", "Etc/GMT", "Z"].contains(text) { return .utc }
            let path = text.hasPrefix("/") ? text : folder + "/" + text
            if !text.contains(".."), let zone = file(path, name: text.hasPrefix("/") ? zoneName(path) : text) {
                return zone
            }
            if let rule = PosixRule(text) {
                return LocalTimeZone(name: text, transitions: [], offsets: [], initialOffset: rule.standardOffset, rule: rule)
            }
            // As the C library does with a zone it can't find; but it is said.
            var stand = LocalTimeZone.utc
            stand.unreadable = text
            return stand
        }
        return file(localtime, name: zoneName(localtime)) ?? .utc
    }

    /// The zone in a TZif file, or nil when it can't be read.
    static func file(_ path: String, name: String) -> LocalTimeZone? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return LocalTimeZone(tzif: [UInt8](data), name: name)
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

    /// Parses a TZif file (versions 1 to 4): the 64-bit block when there is one.
    init?(tzif bytes: [UInt8], name: String) {
        var reader = ByteReader(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var block = header
        var timeSize = 4
        if header.version >= 2 {
            // Skip the 32-bit block: its times end in 2038.
            guard reader.skip(header.dataLength(timeSize: 4)), let second = reader.header() else { return nil }
            block = second
            timeSize = 8
        }
        var times: [Int64] = []
        for _ in 0..<block.timeCount {
            guard let time = reader.integer(timeSize) else { return nil }
            times.append(time)
        }
        var indices: [Int] = []
        for _ in 0..<block.timeCount {
            guard let index = reader.integer(1) else { return nil }
            indices.append(Int(index))
        }
        var types: [Int] = []
        var standard: [Bool] = []
        for _ in 0..<block.typeCount {
            guard let offset = reader.integer(4), let isDST = reader.integer(1), reader.skip(1) else { return nil }
            types.append(Int(offset))
            standard.append(isDST == 0)
        }
        guard !types.isEmpty, indices.allSatisfy({ types.indices.contains($0) }) else { return nil }
        var footer: PosixRule?
        if header.version >= 2, reader.skip(block.dataLength(timeSize: 8) - reader.read(since: block)) {
            footer = reader.footer().flatMap(PosixRule.init)
        }
        // RFC 8536 3.2: the first standard-time type is the one before the first transition.
        let first = standard.firstIndex(of: true) ?? 0
        self.init(name: name, transitions: times, offsets: indices.map { types[$0] }, initialOffset: types[first], rule: footer)
    }

    /// Seconds east of UTC at `date`.
    public func secondsFromGMT(for date: Date) -> Int {
        let seconds = NumberText.int(date.timeIntervalSince1970, .down) ?? 0
        let instant = Int64(seconds)
        guard let last = transitions.last, instant >= transitions[0] else {
            if transitions.isEmpty, let rule { return rule.offset(at: instant) }
            return initialOffset
        }
        if instant >= last, let rule { return rule.offset(at: instant) }
        // The last transition at or before `instant`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return offsets[low]
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

    private static func pad(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
}

/// The bytes of a TZif file, read big-endian.
private struct ByteReader {
    struct Header {
        var version: Int
        var start: Int
        var utCount, standardCount, leapCount, timeCount, typeCount, characterCount: Int

        func dataLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + standardCount + utCount
        }
    }

    let bytes: [UInt8]
    var position = 0

    mutating func header() -> Header? {
        guard position + 44 <= bytes.count, Array(bytes[position..<position + 4]) == Array("TZif".utf8) else { return nil }
        let versionByte = bytes[position + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - 0x30
        position += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            guard let count = integer(4), count >= 0 else { return nil }
            counts.append(Int(count))
        }
        return Header(version: version, start: position, utCount: counts[0], standardCount: counts[1], leapCount: counts[2],
                      timeCount: counts[3], typeCount: counts[4], characterCount: counts[5])
    }

    /// How far the reader is past the end of `header`.
    func read(since header: Header) -> Int { position - header.start }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count else { return false }
        position += count
        return true
    }

    /// A signed big-endian integer of `size` bytes.
    mutating func integer(_ size: Int) -> Int64? {
        guard position + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
        position += size
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    /// The POSIX TZ string between the newlines that end a version 2+ file.
    mutating func footer() -> String? {
        guard position < bytes.count, bytes[position] == 0x0A else { return nil }
        let rest = bytes[(position + 1)...]
        guard let end = rest.firstIndex(of: 0x0A) else { return nil }
        let text = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
