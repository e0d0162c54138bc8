@testable import CycleCommands
import CycleCore
@testable import CycleHistory
@testable import CycleService
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The history file under hostile conditions: absurd numbers, links to the same file,
/// permissions, a read-only file system.
@Suite(.serialized) struct StoreFaultTests {
    // MARK: 4. No number traps

    @Test(arguments: [1e17, 1e300, -1e19, Double.infinity, -Double.infinity, Double.nan, 9.3e18])
    func numberTextNeverTraps(value: Double) {
        _ = NumberText.plain(value)
        _ = NumberText.fixed(value, decimals: 2)
        _ = DurationText.format(seconds: value, texts: Texts())
        _ = ISOTime.format(Date(timeIntervalSince1970: value.isFinite ? value : 0))
        #expect(NumberText.int(value) == nil || abs(value) < 9.3e18)
        #expect(!NumberText.isPlausible(value))
    }

    @Test func numberTextReadsAsBefore() {
        #expect(NumberText.plain(12) == "12")
        #expect(NumberText.plain(0.82) == "0.82")
        #expect(NumberText.plain(1e17) == "1e+17")
        #expect(NumberText.fixed(0.8249, decimals: 2) == "0.82")
        #expect(NumberText.fixed(-1.5, decimals: 0) == "-2")
        #expect(NumberText.fixed(12, decimals: 2) == "12.00")
        #expect(NumberText.int(2.9) == 2)
        #expect(NumberText.int(-2.5, .toNearestOrAwayFromZero) == -3)
    }

    @Test func anAbsurdEnergyReadingIsNotReportedAndNeverStored() throws {
        let observation = Observation(at: t(0), raw: [.operationState: "run", .energy: "1e17", .power: "inf"])
        #expect(observation.energy == nil)
        #expect(observation.power == nil)
        let fixture = try StoreFixture()
        let store = try fixture.store()
        let id = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: t(0), source: .run)
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: nil,
                              energyStart: 2e17)
        try store.closeCycle(id: id, endedAt: t(60), outcome: .finished, energyEnd: 3e17)
        let cycle = try #require(try store.cycle(id: id))
        #expect(cycle.energyStart == nil)
        #expect(cycle.energyKWh == nil)
    }

    @Test(arguments: ["query", "stats"])
    func queryAndStatsReadAHistoryWithAbsurdNumbers(command: String) async throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        // What an older cycletrack, or a hand-edited file, may hold.
        try store.transaction {
            try store.connection.execute(
                """
                INSERT INTO cycles (appliance_id, program, started_at, ended_at, outcome, first_predicted_finish,
                                    pushes, energy_start, energy_kwh, source)
                VALUES ('dishwasher', 'eco_50', 0, 1e300, 'finished', -1e300, 0, 0, 1e17, 'run'),
                       ('dishwasher', 'eco_50', 100, 4000, 'finished', 3000, 0, 0, 2.5e18, 'run')
                """)
        }
        for format in ["table", "json", "csv"] {
            let status = await CommandLineTool.main([command, "--db", fixture.path(), "--format", format], environment: [:])
            #expect(status == 0, "\(command) --format \(format)")
        }
    }

    // MARK: 5. The run lock follows the file

    @Test func theRunLockMeetsTheSameFileThroughASymlinkAndAHardLink() throws {
        let fixture = try StoreFixture()
        let database = fixture.path()
        _ = try HistoryStore(path: database)
        #expect(symlink(database, fixture.path("symlink.sqlite")) == 0)
        #expect(link(database, fixture.path("hardlink.sqlite")) == 0)
        do {
            let held = try DatabaseLock(database: database)
            for other in ["symlink.sqlite", "hardlink.sqlite", "./../" + (fixture.directory as NSString).lastPathComponent + "/history.sqlite"] {
                let path = other.hasPrefix(".") ? fixture.directory + "/" + other : fixture.path(other)
                let refusal = #expect(throws: DatabaseLock.Refusal.self) { _ = try DatabaseLock(database: path) }
                #expect(refusal?.isHeld == true)
                #expect(refusal?.description.contains(path) == true)
            }
            withExtendedLifetime(held) {}
        }
        // Released with its holder.
        _ = try DatabaseLock(database: fixture.path("hardlink.sqlite"))
    }

    // MARK: 6. Private files

    @Test func aNewHistoryIsReadableByItsOwnerOnly() throws {
        let fixture = try StoreFixture()
        let previous = umask(0o022)
        defer { umask(previous) }
        let database = fixture.directory + "/new/folder/history.sqlite"
        let store = try HistoryStore(path: database)
        try store.upsertAppliance(id: "dishwasher", name: "Dishwasher", at: t(0))
        func mode(_ path: String) -> mode_t {
            var info = stat()
            #expect(stat(path, &info) == 0, "\(path) exists")
            return info.st_mode & 0o777
        }
        #expect(mode(database) == 0o600)
        #expect(mode(database + "-wal") == 0o600)
        #expect(mode(database + "-shm") == 0o600)
        #expect(mode(fixture.directory + "/new") == 0o700)
        #expect(mode(fixture.directory + "/new/folder") == 0o700)
        // The lock creates the file the same way when it comes first.
        let locked = fixture.directory + "/other/history.sqlite"
        let lock = try DatabaseLock(database: locked)
        #expect(mode(locked) == 0o600)
        #expect(mode(fixture.directory + "/other") == 0o700)
        withExtendedLifetime(lock) {}
    }

    // MARK: 7. A read-only database

    @Test(.enabled(if: TinyFileSystem.canMount, TinyFileSystem.why))
    func aReadOnlyDatabaseIsRefusedForRunAndReadForQuery() async throws {
        let disk = try #require(try TinyFileSystem(megabytes: 8))
        let database = disk.path + "/history.sqlite"
        do {
            let store = try HistoryStore(path: database)
            try store.upsertAppliance(id: "dishwasher", name: "Dishwasher", at: t(0))
            let id = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: t(0), source: .run)
            try store.closeCycle(id: id, endedAt: t(3600), outcome: .finished, energyEnd: nil)
        }
        #expect(disk.remount(readOnly: true))
        defer { _ = disk.remount(readOnly: false) }

        let refused = #expect(throws: StoreError.self) { _ = try HistoryStore(path: database) }
        #expect(refused?.kind == .readOnly)
        #expect(refused?.description.contains(database) == true)
        let lockRefusal = #expect(throws: DatabaseLock.Refusal.self) { _ = try DatabaseLock(database: database) }
        #expect(lockRefusal?.isHeld == false)
        #expect(lockRefusal?.description.contains(database) == true)

        let reader = try HistoryStore(path: database, mode: .readOnly)
        #expect(try reader.cycles(matching: CycleFilter()).count == 1)
        #expect(await CommandLineTool.main(["query", "--db", database], environment: [:]) == 0)
        #expect(await CommandLineTool.main(["stats", "--db", database], environment: [:]) == 0)
    }
}
