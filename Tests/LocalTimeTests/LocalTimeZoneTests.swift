import FoundationEssentials
import LocalTime
import Testing

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
        let zone = LocalTimeZone.resolve(environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"])
        #expect(zone.secondsFromGMT(for: Self.winter) == 3_600)
        #expect(zone.secondsFromGMT(for: Self.summer) == 7_200)
        let southern = LocalTimeZone.resolve(environment: ["TZ": "AEST-10AEDT,M10.1.0,M4.1.0/3"])
        #expect(southern.secondsFromGMT(for: Self.winter) == 39_600, "January is summer in Sydney")
        #expect(southern.secondsFromGMT(for: Self.summer) == 36_000)
        #expect(LocalTimeZone.resolve(environment: ["TZ": "EST5"]).secondsFromGMT(for: Self.summer) == -18_000)
    }

    @Test func utcZonesAreUTC() {
        for tz in ["UTC", ":UTC", "Etc/UTC", "GMT", ""] {
            #expect(LocalTimeZone.resolve(environment: ["TZ": tz]) == .utc, "\(tz)")
        }
        #expect(LocalTimeZone.utc.isKnown)
        #expect(LocalTimeZone.fixed(secondsFromGMT: -16_200).name == "UTC-04:30")
    }

    @Test(arguments: ["Bogus/Zone", "Mars/Olympus_Mons", "../../etc/passwd", ":/nonexistent/localtime", "Europe/Berlinn"])
    func aZoneThatTZNamesButIsNowhereReadsAsUTCAndSaysItIsUnknown(tz: String) {
        let zone = LocalTimeZone.resolve(environment: ["TZ": tz])
        #expect(!zone.isKnown)
        #expect(zone.name == (tz.hasPrefix(":") ? String(tz.dropFirst()) : tz))
        #expect(zone.secondsFromGMT(for: Self.winter) == 0)
        #expect(zone.secondsFromGMT(for: Self.summer) == 0)
        #expect(TimeText.local(Self.summer, timeZone: zone) == "2026-07-15 12:00")
    }

    @Test(.enabled(if: hasZoneFiles)) func knownZonesSaySo() {
        for tz in ["Europe/Berlin", "EST5", "CET-1CEST,M3.5.0,M10.5.0/3", "<+0330>-3:30"] {
            #expect(LocalTimeZone.resolve(environment: ["TZ": tz]).isKnown, "\(tz)")
        }
        #expect(LocalTimeZone.resolve(environment: ["TZ": "<+0330>-3:30"]).secondsFromGMT(for: Self.summer) == 12_600)
    }

    /// Zones read at once from many threads never mix: each reading is in its own zone.
    @Test(.enabled(if: hasZoneFiles)) func zonesReadTogetherStayApart() async {
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"].map { LocalTimeZone.resolve(environment: ["TZ": $0]) }
        let expected = [7_200, -14_400, 32_400, 0]
        let wrong = await withTaskGroup(of: Int.self) { group in
            for round in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for index in 0..<400 where zones[(index + round) % 4].secondsFromGMT(for: Self.summer) != expected[(index + round) % 4] {
                        mismatches += 1
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }
}
