import CycleHistory
import FoundationEssentials
import LocalTime

/// The query string's arguments read strictly: a value that isn't what the field
/// takes is a 400 naming the field, never a guess. An empty value (a form's empty
/// field) means the field was not given.
struct PageQuery {
    let arguments: [String: String]
    let timeZone: LocalTimeZone

    /// The longest text a field takes; more is a 400.
    static let maximumTextLength = 200

    private func value(_ name: String) throws(PageError) -> String? {
        guard let text = arguments[name], !text.isEmpty else { return nil }
        guard text.count <= Self.maximumTextLength else {
            throw .badRequest("'\(name)' takes at most \(Self.maximumTextLength) characters, got \(text.count)")
        }
        return text
    }

    /// A whole number in `range`, written with digits only (no sign, no spaces).
    func integer(_ name: String, in range: ClosedRange<Int64>) throws(PageError) -> Int64? {
        guard let text = try value(name) else { return nil }
        guard text.count <= 18, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let number = Int64(text), range.contains(number) else {
            throw .badRequest("'\(name)' expects a whole number from \(range.lowerBound) to \(range.upperBound), got '\(Self.shown(text))'")
        }
        return number
    }

    /// Free text (a program name to search for).
    func text(_ name: String) throws(PageError) -> String? { try value(name) }

    /// One of `choices`.
    func choice(_ name: String, _ choices: [String]) throws(PageError) -> String? {
        guard let text = try value(name) else { return nil }
        guard choices.contains(text) else {
            throw .badRequest("'\(name)' expects one of \(choices.joined(separator: ", ")), got '\(Self.shown(text))'")
        }
        return text
    }

    /// A day as `<input type="date">` sends it (`2026-11-02`), as local midnight; as the
    /// end of a range, the midnight after it, so the day itself is included.
    func day(_ name: String, endOfDay: Bool) throws(PageError) -> Date? {
        guard let text = try value(name) else { return nil }
        let problem = PageError.badRequest("'\(name)' expects a date like 2026-11-02, got '\(Self.shown(text))'")
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { throw problem }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = .gmt
        guard let utcMidnight = utc.date(from: DateComponents(year: year, month: month, day: day)) else { throw problem }
        let back = utc.dateComponents([.year, .month, .day], from: utcMidnight)
        // The calendar is lenient (February 30 becomes March 2): insist on a round trip.
        guard back.year == year, back.month == month, back.day == day else { throw problem }
        // Local midnight: the UTC one moved by the zone's offset on that day.
        let zone = timeZone.timeZone(for: utcMidnight)
        let midnight = utcMidnight.addingTimeInterval(-Double(zone.secondsFromGMT(for: utcMidnight)))
        return endOfDay ? midnight.addingTimeInterval(86_400) : midnight
    }

    /// At most 40 characters of what was sent, for an error message.
    static func shown(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
