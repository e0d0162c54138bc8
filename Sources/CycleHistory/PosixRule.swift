/// A POSIX TZ rule (`CET-1CEST,M3.5.0,M10.5.0/3`): what `$TZ` may hold instead of a zone
/// name, and what a TZif file's footer says for times after its last transition. Only
/// the `Mm.w.d` form of the change dates is read (the form every zone file uses).
struct PosixRule: Sendable, Equatable {
    /// Seconds east of UTC in standard and in daylight-saving time.
    let standardOffset: Int
    let daylightOffset: Int?
    /// When daylight-saving time starts and ends, in local wall time.
    private let start: Change?
    private let end: Change?

    /// The `Mm.w.d/time` of a change: month, week (5: the last), weekday (0: Sunday), seconds after midnight.
    private struct Change: Sendable, Equatable {
        var month, week, weekday, time: Int
    }

    init?(_ text: String) {
        var scanner = Substring(text)
        guard Self.name(&scanner), let standard = Self.offset(&scanner) else { return nil }
        // POSIX offsets count west of UTC.
        standardOffset = -standard
        guard !scanner.isEmpty else {
            daylightOffset = nil
            start = nil
            end = nil
            return
        }
        guard Self.name(&scanner) else { return nil }
        if let daylight = Self.offset(&scanner) { daylightOffset = -daylight } else { daylightOffset = standardOffset + 3_600 }
        if scanner.isEmpty {
            // The POSIX default, the United States' rule.
            start = Change(month: 3, week: 2, weekday: 0, time: 7_200)
            end = Change(month: 11, week: 1, weekday: 0, time: 7_200)
            return
        }
        guard scanner.first == ",", let first = Self.change(&scanner), scanner.first == ",", let second = Self.change(&scanner),
              scanner.isEmpty else { return nil }
        start = first
        end = second
    }

    /// Seconds east of UTC at `instant` (Unix seconds).
    func offset(at instant: Int64) -> Int {
        guard let daylightOffset, let start, let end else { return standardOffset }
        let year = Self.year(of: instant + Int64(standardOffset))
        let begins = Self.instant(start, year: year) - Int64(standardOffset)
        let ends = Self.instant(end, year: year) - Int64(daylightOffset)
        let inDaylight = begins < ends ? (instant >= begins && instant < ends) : (instant < ends || instant >= begins)
        return inDaylight ? daylightOffset : standardOffset
    }

    // MARK: Reading

    /// `CET` or `<+0330>`.
    private static func name(_ scanner: inout Substring) -> Bool {
        if scanner.first == "<" {
            guard let close = scanner.firstIndex(of: ">") else { return false }
            scanner = scanner[scanner.index(after: close)...]
            return true
        }
        let letters = scanner.prefix { $0.isLetter }
        guard letters.count >= 3 else { return false }
        scanner = scanner.dropFirst(letters.count)
        return true
    }

    /// `[+-]hh[:mm[:ss]]` as seconds.
    private static func offset(_ scanner: inout Substring) -> Int? {
        var sign = 1
        if scanner.first == "+" || scanner.first == "-" {
            if scanner.first == "-" { sign = -1 }
            scanner = scanner.dropFirst()
        }
        guard let first = scanner.first, first.isNumber else { return nil }
        var parts: [Int] = []
        while parts.count < 3 {
            let digits = scanner.prefix { $0.isNumber }
            guard !digits.isEmpty, let value = Int(digits) else { return nil }
            parts.append(value)
            scanner = scanner.dropFirst(digits.count)
            guard scanner.first == ":" else { break }
            scanner = scanner.dropFirst()
        }
        let seconds = parts.enumerated().reduce(0) { total, part in total + part.element * [3_600, 60, 1][part.offset] }
        return sign * seconds
    }

    /// `,Mm.w.d[/time]`.
    private static func change(_ scanner: inout Substring) -> Change? {
        scanner = scanner.dropFirst()
        guard scanner.first == "M" else { return nil }
        scanner = scanner.dropFirst()
        var numbers: [Int] = []
        for index in 0..<3 {
            let digits = scanner.prefix { $0.isNumber }
            guard let value = Int(digits) else { return nil }
            numbers.append(value)
            scanner = scanner.dropFirst(digits.count)
            if index < 2 {
                guard scanner.first == "." else { return nil }
                scanner = scanner.dropFirst()
            }
        }
        guard (1...12).contains(numbers[0]), (1...5).contains(numbers[1]), (0...6).contains(numbers[2]) else { return nil }
        var time = 7_200
        if scanner.first == "/" {
            scanner = scanner.dropFirst()
            guard let seconds = offset(&scanner) else { return nil }
            time = seconds
        }
        return Change(month: numbers[0], week: numbers[1], weekday: numbers[2], time: time)
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, Howard Hinnant's civil-day algorithms)

    /// The local wall time of `change` in `year`, as seconds since the epoch read as UTC.
    private static func instant(_ change: Change, year: Int) -> Int64 {
        let firstOfMonth = days(year: year, month: change.month, day: 1)
        // 1970-01-01 was a Thursday (4).
        let weekdayOfFirst = Int((firstOfMonth % 7 + 11) % 7)
        var day = 1 + (change.weekday - weekdayOfFirst + 7) % 7 + (change.week - 1) * 7
        let length = Int(days(year: change.month == 12 ? year + 1 : year, month: change.month % 12 + 1, day: 1) - firstOfMonth)
        while day > length { day -= 7 }
        return (firstOfMonth + Int64(day - 1)) * 86_400 + Int64(change.time)
    }

    /// Days since 1970-01-01 of a civil date.
    private static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil year of `seconds` since the epoch.
    private static func year(of seconds: Int64) -> Int {
        let z = (seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let year = yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0)
        return Int(year)
    }
}
