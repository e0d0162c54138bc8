import FoundationEssentials

/// ISO 8601 timestamps as HA and the traces write them, parsed and printed without
/// locale or time-zone databases so that `run` and `replay` agree to the byte.
public enum ISOTime {
    /// Parses `2026-11-29T13:05:12+00:00`, `2026-11-29T13:05:12.345+01:00`,
    /// `2026-11-29T13:05:12Z` (a space may stand for the `T`, the offset may be
    /// written `+0100`). A time without a zone, or anything else, is nil.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.trimmingASCIISpaces().utf8)
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.number(digits: 4), reader.skip("-"),
              let month = reader.number(digits: 2), reader.skip("-"),
              let day = reader.number(digits: 2),
              reader.skip("T") || reader.skip("t") || reader.skip(" "),
              let hour = reader.number(digits: 2), reader.skip(":"),
              let minute = reader.number(digits: 2), reader.skip(":"),
              let second = reader.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") || reader.skip(",") {
            var numerator = 0
            var denominator = 1
            while let digit = reader.digit() {
                // Beyond nanoseconds the digits can't change a Date.
                if denominator < 1_000_000_000 {
                    numerator = numerator * 10 + digit
                    denominator *= 10
                }
            }
            guard denominator > 1 else { return nil }
            fraction = Double(numerator) / Double(denominator)
        }
        let offsetSeconds: Int
        if reader.skip("Z") || reader.skip("z") {
            offsetSeconds = 0
        } else if let sign = reader.sign() {
            guard let hours = reader.number(digits: 2) else { return nil }
            _ = reader.skip(":")
            guard let minutes = reader.number(digits: 2), hours < 24, minutes < 60 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard reader.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `2026-11-02T08:00:00Z`, in UTC; milliseconds (`.250Z`) only when not zero.
    public static func format(_ date: Date) -> String {
        // Dates come from clocks, HA and the store; one beyond Int's milliseconds reads as the epoch.
        let totalMillis = NumberText.int(date.timeIntervalSince1970 * 1000, .toNearestOrAwayFromZero) ?? 0
        let millis = ((totalMillis % 1000) + 1000) % 1000
        let seconds = (totalMillis - millis) / 1000
        let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
        let days = (seconds - secondOfDay) / 86_400
        let (year, month, day) = civilFromDays(days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if millis != 0 { text += "." + pad(millis, 3) }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads fixed-width decimal fields and single characters off an ASCII byte array.
private struct DigitReader {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - 0x30)
    }

    mutating func number(digits: Int) -> Int? {
        var value = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}

extension String {
    /// The text without leading and trailing ASCII whitespace (FoundationEssentials
    /// has no `trimmingCharacters(in:)`).
    func trimmingASCIISpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
