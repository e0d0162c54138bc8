import CycleCore
import FoundationEssentials
import Testing
@testable import CycleHistory
@testable import CycleCommands

/// Local time for the tables: `$TZ` or `/etc/localtime`, read from the zone files.
@Suite struct LocalTimeZoneTests {
    /// 2026-01-15 12:00Z (winter) and 2026-07-15 12:00Z (summer).
    static let winter = Date(timeIntervalSince1970: 1_768_478_400)
    static let summer = Date(timeIntervalSince1970: 1_784_116_800)
    static let hasZoneFiles = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin")

    @Test(.enabled(if: hasZoneFiles), arguments: ["Europe/Berlin", ":Europe/Berlin", "/usr/share/zoneinfo/Europe/Berlin"])
    func tzNamesAZone(tz: String) {
        let zone = LocalTimeZone.resolve(environment: ["TZ": tz])
        #expect(zone.name == "Europe/Berlin")
        #expect(zone.secondsFromGMT(for: Self.winter) == 3_600)
        #expect(zone.secondsFromGMT(for: Self.summer) == 7_200)
        #expect(TimeText.local(Self.summer, timeZone: zone) == "2026-07-15 14:00")
    }

    @Test(.enabled(if: hasZoneFiles)) func theChangeHappensAtTheRightInstant() {
        let zone = LocalTimeZone.resolve(environment: ["TZ": "Europe/Berlin"])
        // 2026-03-29 01:00Z: clocks go from 02:00 CET to 03:00 CEST.
        let change = Date(timeIntervalSince1970: 1_774_746_000)
        #expect(zone.secondsFromGMT(for: change.addingTimeInterval(-1)) == 3_600)
        #expect(zone.secondsFromGMT(for: change) == 7_200)
        // Past the last transition in the file, the footer's rule: 2040 summer and winter.
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 2_225_736_000)) == 7_200)  // 2040-07-13
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 2_210_011_200)) == 3_600)  // 2040-01-14
        // A local wall time is read with the offset in force then.
        let wall = Date(timeIntervalSince1970: 1_784_116_800 + 7_200)  // 14:00 "as UTC"
        #expect(zone.instant(wallClock: wall) == Self.summer)
    }

    @Test func posixRulesWithoutZoneFiles() {
        let zone = LocalTimeZone.resolve(environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"], zoneinfo: "/nonexistent")
        #expect(zone.secondsFromGMT(for: Self.winter) == 3_600)
        #expect(zone.secondsFromGMT(for: Self.summer) == 7_200)
        let southern = LocalTimeZone.resolve(environment: ["TZ": "AEST-10AEDT,M10.1.0,M4.1.0/3"], zoneinfo: "/nonexistent")
        #expect(southern.secondsFromGMT(for: Self.winter) == 39_600, "January is summer in Sydney")
        #expect(southern.secondsFromGMT(for: Self.summer) == 36_000)
        #expect(LocalTimeZone.resolve(environment: ["TZ": "EST5"], zoneinfo: "/nonexistent").secondsFromGMT(for: Self.summer) == -18_000)
    }

    @Test func unknownOrUTCZonesAreUTC() {
        #expect(LocalTimeZone.resolve(environment: ["TZ": "UTC"]) == .utc)
        // UTC stands in for a zone it can't read, and says which (for `check` and the page).
        for (tz, zoneinfo) in [("Mars/Olympus_Mons", "/nonexistent"), ("../../etc/passwd", nil)] as [(String, String?)] {
            let zone = LocalTimeZone.resolve(environment: ["TZ": tz], zoneinfo: zoneinfo)
            #expect(zone.name == "UTC" && zone.secondsFromGMT(for: Date()) == 0 && zone.unreadable == tz)
        }
        #expect(LocalTimeZone.resolve(environment: ["TZ": "UTC"]).unreadable == nil)
        #expect(LocalTimeZone.resolve(environment: [:], localtime: "/nonexistent") == .utc)
        #expect(LocalTimeZone.fixed(secondsFromGMT: -16_200).name == "UTC-04:30")
    }

    @Test(.enabled(if: hasZoneFiles)) func queryShowsLocalTimeFromTZAndUTCInExports() throws {
        let files = try StoreFixture()
        let store = try files.store()
        let id = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: Self.summer, source: .run)
        try store.closeCycle(id: id, endedAt: Self.summer.addingTimeInterval(3_600), outcome: .finished, energyEnd: nil)
        let environment = ["TZ": "Europe/Berlin"]
        let table = try QueryCommand(arguments: ["--db", files.path()], environment: environment).run(now: Self.summer)
        #expect(table.contains("2026-07-15 14:00"), "\(table)")
        let csv = try QueryCommand(arguments: ["--db", files.path(), "--format", "csv"], environment: environment).run(now: Self.summer)
        #expect(csv.contains(",2026-07-15T12:00:00Z,2026-07-15T13:00:00Z,"))
        // A bare date is local midnight: 2026-07-15 00:00 in Berlin is 2026-07-14 22:00Z.
        let since = try QueryCommand(arguments: ["--db", files.path(), "--since", "2026-07-15T14:00", "--format", "csv"],
                                     environment: environment).run(now: Self.summer)
        #expect(since.split(separator: "\n").count == 2, "14:00 Berlin is the start itself")
        let after = try QueryCommand(arguments: ["--db", files.path(), "--since", "2026-07-15T14:01", "--format", "csv"],
                                     environment: environment).run(now: Self.summer)
        #expect(after.split(separator: "\n").count == 1)
    }
}
