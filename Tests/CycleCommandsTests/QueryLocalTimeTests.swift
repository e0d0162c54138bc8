@testable import CycleCommands
import FoundationEssentials
import TestSupport
import Testing

/// `query` shows local time from `$TZ` in its table and UTC in its exports.
@Suite struct QueryLocalTimeTests {
    /// 2026-07-15 12:00Z (summer).
    static let summer = Date(timeIntervalSince1970: 1_784_116_800)
    static let hasZoneFiles = FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin")

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
