@testable import CycleCommands
import CycleHistory
import FoundationEssentials
import LocalTime
import TestSupport
import Testing

@Suite struct HistoryTimeTests {
    private static let now = t(0)  // 2026-11-02T08:00:00Z
    private static let zone = LocalTimeZone.fixed(secondsFromGMT: 3_600)

    private func parse(_ text: String, _ bound: TimeArgument.Bound = .start) throws(CommandError) -> Date {
        try TimeArgument.parse(text, option: "since", bound: bound, now: Self.now, timeZone: Self.zone)
    }

    static let starts: [(String, Double)] = [
        ("30m", -1_800.0),
        ("12h", -43_200),
        ("7d", -604_800),
        ("2w", -1_209_600),
        ("0d", 0),
        ("2026-11-02", -9 * 3_600),  // local midnight at UTC+1 is 23:00Z the day before
        ("2026-11-02T08:02:00Z", 120),
        ("2026-11-02T08:02Z", 120),
        ("2026-11-02T09:02:00+01:00", 120),
        ("2026-11-02T03:02:00-0500", 120),
        ("2026-11-02T10:02:00+02", 120),
        ("2026-11-02T09:02:00", 120),  // no zone: local
        ("2026-11-02 09:02", 120),
        ("2026-11-02T08:02:00.25Z", 120.25),
        ("2024-02-29T00:00:00Z", 1_709_164_800 - 1_793_606_400),
    ]

    @Test(arguments: starts)
    func parsesStarts(text: String, offset: Double) throws {
        #expect(try parse(text) == t(offset))
    }

    @Test func aBareDateAsUntilIsTheEndOfThatDay() throws {
        #expect(try parse("2026-11-02", .end) == t(15 * 3_600))
        #expect(try parse("2026-11-02T09:00:00Z", .end) == t(3_600))
    }

    @Test(arguments: [
        "", "yesterday", "7", "7x", "-3d", "+3d", "3 d", "2026-02-30", "2026-13-01", "2026-11-2",
        "2026-11-02T25:00Z", "2026-11-02T08:60Z", "2026-11-02Z", "2026-11-02T08:00:00+25:00", "02/11/2026",
    ])
    func rejects(text: String) {
        let error = #expect(throws: CommandError.self) { try parse(text) }
        #expect(error?.code == .usage)
        #expect(error?.message == "--since expected an ISO date (2026-11-02), an ISO date-time (2026-11-02T08:02:00Z, 2026-11-02T09:02:00+01:00) or a relative time (30m, 12h, 7d, 2w), got '\(text)'")
    }

    static let durationTexts: [(Double, String)] = [
        (0.0, "0 min"), (29, "0 min"), (59, "0 min"), (61, "1 min"), (2_700, "45 min"), (3_599, "59 min"),
        (8_040, "2 h 14 min"), (8_099, "2 h 14 min"), (7_200, "2 h"), (-240, "-4 min"),
    ]

    @Test(arguments: durationTexts)
    func durations(seconds: Double, text: String) {
        #expect(TimeText.duration(seconds) == text)
    }

    @Test func signedDurationsAndFixedDecimals() {
        #expect(TimeText.signedDuration(240) == "+4 min")
        #expect(TimeText.signedDuration(-3_900) == "-1 h 5 min")
        #expect(TimeText.signedDuration(10) == "0 min")
        #expect(TimeText.fixed(0.8199999999999932, decimals: 2) == "0.82")
        #expect(TimeText.fixed(1.1, decimals: 2) == "1.10")
        #expect(TimeText.fixed(12.345, decimals: 0) == "12")
    }

    @Test func isoTimesAndWeeks() {
        #expect(TimeText.isoUTC(t(0.999)) == "2026-11-02T08:00:00Z")
        #expect(TimeText.local(t(0), timeZone: Self.zone) == "2026-11-02 09:00")
        #expect(TimeText.isoWeek(t(0), timeZone: Self.zone) == "2026-W45")
        // Sunday 2026-11-01 23:30 UTC is already Monday in UTC+1.
        #expect(TimeText.isoWeek(t(-8.5 * 3_600), timeZone: .utc) == "2026-W44")
        #expect(TimeText.isoWeek(t(-8.5 * 3_600), timeZone: Self.zone) == "2026-W45")
        // 2027-01-01 is a Friday: it belongs to week 53 of 2026.
        #expect(TimeText.isoWeek(Date(timeIntervalSince1970: 1_798_761_600), timeZone: .utc) == "2026-W53")
    }

    @Test(arguments: [
        ("plain", "plain"), ("a,b", #""a,b""#), (#"say "hi""#, #""say ""hi""""#), ("two\nlines", "\"two\nlines\""),
        ("cr\rhere", "\"cr\rhere\""), ("", ""),
    ])
    func csvFields(text: String, field: String) {
        #expect(ReportValue.csvField(text) == field)
    }

    @Test func jsonStrings() {
        #expect(ReportValue.jsonString("a\"b\\c\nd\u{01}é") == #""a\"b\\c\nd\u0001é""#)
        #expect(ReportValue.number(0.5).json == "0.5")
        #expect(ReportValue.number(3).json == "3")
        #expect(ReportValue.number(.nan).json == "null")
    }
}
