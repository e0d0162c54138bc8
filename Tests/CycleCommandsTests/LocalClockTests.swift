import CycleCore
import CycleCommands
import FoundationEssentials
import Testing

/// The local clock quiet hours are read on: `$TZ` through the zone `query` uses.
@Suite struct LocalClockTests {
    @Test(arguments: [
        // Berlin in winter (+1) and summer (+2), from the zone files `query` reads.
        ("Europe/Berlin", 1_793_577_600.0, 3600),
        ("Europe/Berlin", 1_780_000_000.0, 7200),
        ("UTC", 1_780_000_000.0, 0),
    ])
    func theLocalClockIsTZs(zone: String, unix: Double, offset: Int) throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin"), "no zone files here")
        let clock = LocalClock.local(environment: ["TZ": zone])
        #expect(clock.secondsFromGMT(Date(timeIntervalSince1970: unix)) == offset)
    }
}
