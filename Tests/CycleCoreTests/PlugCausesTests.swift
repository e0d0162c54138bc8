import FoundationEssentials
import Testing
@testable import CycleCore

/// Issue 28: each way real smart plugs went wrong, as a trace made here in the shape the
/// real recordings showed (`RealPlugs/`), replayed with the plain configuration (a name,
/// a plug) through the household `run` drives. Each failed before the plug's signature
/// was read (see the causes 1-5).
@Suite struct PlugCausesTests {
    /// A plug's readings, built phase by phase: each phase repeats its watts every `every` seconds.
    struct Plug {
        private(set) var readings: [(at: Double, watts: Double)] = []
        var now: Double = 0

        /// `seconds` of `pattern` repeated, a reading every `every` seconds.
        mutating func phase(_ seconds: Double, every: Double, _ pattern: [Double]) {
            var index = 0
            let end = now + seconds
            while now < end {
                readings.append((now, pattern[index % pattern.count]))
                index += 1
                now += every
            }
        }

        /// The time of the first reading of `watts` at or after `from`.
        func first(_ watts: Double, after from: Double = 0) -> Date? {
            readings.first { $0.at >= from && $0.watts == watts }.map { at($0.at) }
        }

        func replay(_ name: String) -> ReplayResult {
            var settings = ApplianceSettings(id: name.lowercased().replacingOccurrences(of: " ", with: "_"), name: name)
            settings.profile = .plug
            let observations = readings.map { Observation(at: at($0.at), raw: [.power: String($0.watts)]) }
            return Replay.run(settings: settings, observations: observations)
        }
    }

    static func endSaid(_ cycle: ReplayCycle) -> Date? { cycle.calls.first { $0.kind == .end }?.at }

    @Test func cause1AWashersDrumTurnsAndALongerSecondSoakDoNotEndTheWash() throws {
        var plug = Plug()
        plug.phase(600, every: 20, [0.3])
        let start = plug.now
        plug.phase(1200, every: 20, [150, 145, 2])  // 40 s of load, 20 s at 2 W: the drum turns
        plug.phase(240, every: 20, [1.7, 2.0])  // the first soak, 4 minutes
        plug.phase(900, every: 20, [150, 145, 3])
        plug.phase(420, every: 20, [1.8, 2.0])  // the second soak, 7 minutes
        plug.phase(900, every: 20, [150, 145, 1])
        plug.phase(480, every: 20, [420, 380])  // the spin
        let off = plug.now
        plug.phase(3600, every: 20, [0.3])
        let result = plug.replay("Washer")
        #expect(result.cycles.count == 1)
        let cycle = try #require(result.cycles.first)
        #expect(cycle.startedAt == at(start))
        #expect(cycle.endedAt == at(off))
        #expect(try #require(Self.endSaid(cycle)).timeIntervalSince(at(off)) <= 600)
    }

    @Test func cause2ADishwashersSilentDryingAndShortPumpOutAreOneCycle() throws {
        var plug = Plug()
        plug.phase(600, every: 30, [0])
        let start = plug.now
        plug.phase(1200, every: 30, [1990, 1960])
        plug.phase(1800, every: 30, [65, 70, 22, 68])
        plug.phase(900, every: 30, [1950, 1940])
        plug.phase(60, every: 30, [18, 23])  // a blip right after the heating
        plug.phase(1200, every: 30, [0])  // drying: nothing at all for 20 minutes
        plug.phase(60, every: 30, [21, 58])  // the pump-out, under a minute and a half
        let end = plug.now
        plug.phase(3600, every: 30, [0])
        let result = plug.replay("Dishwasher")
        #expect(result.cycles.count == 1)
        let cycle = try #require(result.cycles.first)
        #expect(cycle.startedAt == at(start))
        #expect(cycle.endedAt == at(end))
        #expect(try #require(Self.endSaid(cycle)).timeIntervalSince(at(end)) <= 600)
    }

    @Test func cause3AStandbyFlickeringAbove0_5WEndsEachCycleOnTimeAndKeepsThemApart() throws {
        var plug = Plug()
        let standby: [Double] = [0.4, 1.2, 2.8, 1.9, 2.4, 0.9]
        plug.phase(3600, every: 5, standby)
        var cycles: [(start: Double, end: Double)] = []
        for _ in 0..<2 {
            let start = plug.now
            plug.phase(1800, every: 5, [140, 150, 135, 18, 130, 145])
            plug.phase(600, every: 5, [310, 300, 305])
            cycles.append((start, plug.now))
            plug.phase(2340, every: 5, standby)  // 39 minutes between the two
        }
        plug.phase(3600, every: 5, standby)
        let result = plug.replay("Washer dryer")
        #expect(result.cycles.count == 2)
        for (found, truth) in zip(result.cycles, cycles) {
            #expect(found.startedAt == at(truth.start))
            #expect(found.endedAt == at(truth.end))
            #expect(try #require(Self.endSaid(found)).timeIntervalSince(at(truth.end)) <= 600)
        }
    }

    @Test func cause4ADelayedStartsWaitIsNoCycleAndTheCycleStartsWhenTheWorkDoes() throws {
        var plug = Plug()
        plug.phase(1800, every: 6, [2.0, 1.6])
        // Thirteen hours waiting at about 5 W, a flick to 20-25 W now and then.
        plug.phase(13 * 3600, every: 6, [5.5, 6.5, 5.8, 7.0, 20.0, 5.6, 6.2, 5.4, 6.8, 5.9, 25.0, 3.1])
        let start = plug.now
        plug.phase(120, every: 6, [77, 17, 14, 12])
        plug.phase(2400, every: 6, [150, 180, 17, 2050, 2040, 140])
        let end = plug.now
        plug.phase(3600, every: 6, [2.0, 1.6])
        let result = plug.replay("Washer dryer")
        #expect(result.cycles.count == 1)
        let cycle = try #require(result.cycles.first)
        #expect(abs(cycle.startedAt.timeIntervalSince(at(start))) <= 120)
        #expect(cycle.endedAt == at(end))
    }

    @Test func cause5ADisplayThatStaysOnAfterTheEndIsIdle() throws {
        var plug = Plug()
        plug.phase(600, every: 5, [0])
        let start = plug.now
        plug.phase(2400, every: 5, [2080, 2100, 130, 2090])
        plug.phase(600, every: 5, [95, 110, 24])
        let end = plug.now
        plug.phase(900, every: 5, [8, 9, 8, 7])  // the display, 15 minutes
        plug.phase(3600, every: 5, [0])
        let result = plug.replay("Washer")
        #expect(result.cycles.count == 1)
        let cycle = try #require(result.cycles.first)
        #expect(cycle.startedAt == at(start))
        #expect(cycle.endedAt == at(end))
        #expect(try #require(Self.endSaid(cycle)).timeIntervalSince(at(end)) <= 600)
    }
}

extension PlugCausesTests {
    @Test func aWashersSoakRightAfterItsHeatingMayLastTwiceAsLong() throws {
        var plug = Plug()
        plug.phase(600, every: 60, [0])
        let start = plug.now
        plug.phase(900, every: 60, [1500, 1480])
        plug.phase(660, every: 60, [6, 3, 2, 1, 4, 3, 2, 0, 3, 2, 4])  // 11 minutes after the heating
        plug.phase(1800, every: 60, [160, 170, 2, 180])
        plug.phase(600, every: 60, [400, 380])
        let end = plug.now
        plug.phase(3600, every: 60, [0])
        let result = plug.replay("Washer")
        #expect(result.cycles.count == 1)
        #expect(result.cycles.first?.startedAt == at(start))
        #expect(result.cycles.first?.endedAt == at(end))
    }
}
