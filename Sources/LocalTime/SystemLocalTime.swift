import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The C library's local time (`tzset`, `localtime_r`), for one value of `TZ` at a time.
///
/// The C library keeps one zone per process, the one `TZ` named when `tzset` last ran.
/// Every reading goes through one lock that sets `TZ` to the zone asked for (when it is
/// another than the one in force), calls `tzset`, and reads `localtime_r`'s offset, so
/// zones never mix however many threads ask. The service asks only for its own zone, so
/// it never changes its environment; tests that ask for several zones do, and then only
/// by replacing `TZ`'s value, never by removing it.
enum SystemLocalTime {
    /// The system's zone file, which the C library reads when `TZ` is unset.
    static let defaultZoneFile = "/etc/localtime"

    /// The `TZ` value `tzset` last read here; nil before the first reading.
    private static let applied = Mutex<String?>(nil)

    /// Seconds east of UTC at `seconds` since 1970 in the zone `tz` names.
    static func secondsFromGMT(at seconds: Int, tz: String) -> Int {
        applied.withLock { applied in
            if applied != tz {
                if currentTZ() != tz, !(tz == defaultZoneFile && currentTZ() == nil) {
                    setenv("TZ", tz, 1)
                }
                tzset()
                applied = tz
            }
            var time = time_t(seconds)
            var parts = tm()
            guard localtime_r(&time, &parts) != nil else { return 0 }
            return Int(parts.tm_gmtoff)
        }
    }

    /// Whether `path` is a TZif zone file (RFC 8536: it starts with `TZif`).
    static func isZoneFile(_ path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var magic = [UInt8](repeating: 0, count: 4)
        return fread(&magic, 1, 4, file) == 4 && magic == Array("TZif".utf8)
    }

    /// Whether `text` has the shape of a POSIX `TZ` rule: a zone abbreviation (three
    /// letters or more, or `<…>`) and then an offset (`EST5`, `CET-1CEST,M3.5.0,M10.5.0/3`,
    /// `<+0330>-3:30`). The C library reads the rest.
    static func isPosixRule(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.hasPrefix("<") {
            guard let end = rest.firstIndex(of: ">"), rest.distance(from: rest.startIndex, to: end) >= 4 else { return false }
            rest = rest[rest.index(after: end)...]
        } else {
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard letters.count >= 3 else { return false }
            rest = rest.dropFirst(letters.count)
        }
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        return rest.first.map { $0.isASCII && $0.isNumber } ?? false
    }

    private static func currentTZ() -> String? {
        getenv("TZ").map { String(cString: $0) }
    }
}
