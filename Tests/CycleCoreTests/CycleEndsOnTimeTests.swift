import FoundationEssentials
import Testing
@testable import CycleCore

/// Issue 21: every brand and every plug cycle ends on time. Traces in `Fixtures/` built
/// from the entity states the integrations' sources produce (docs/CYCLES.md, "Brands";
/// docs/PLUGS.md), replayed through the same household `run` drives.
@Suite struct CycleEndsOnTimeTests {
    typealias Fixture = BrandReplayTests

    private static func kinds(_ result: ReplayResult) -> [CallKind] {
        result.calls.map(\.kind).filter { $0 != .quiet && $0 != .progress && $0 != .reminder }
    }

    // MARK: Electrolux / AEG

    @Test(arguments: ["normal", "paused", "nasty"])
    func electroluxEndsAtEndOfCycleAsItsSensorShowsIt(scenario: String) throws {
        let (result, _) = try Fixture.replay("electrolux-washer-\(scenario).jsonl", Fixture.settings("washer", .electrolux))
        let pause = scenario == "paused" ? 10.0 : 0
        #expect(result.cycles.count == 1)
        #expect(result.cycles.first?.outcome == .finished)
        #expect(result.cycles.first?.program == "Cotton")
        #expect(result.cycles.first?.startedAt == minute(3))
        #expect(result.cycles.first?.endedAt == minute(3 + 150 + pause).addingTimeInterval(30))
        #expect(Self.kinds(result) == [.start, .clear, .end])
        // The time to end is in minutes: 150 of them at the start.
        #expect(result.calls.first?.when == NumberText.int(minute(3 + 150).timeIntervalSince1970))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        if scenario == "paused" { #expect(result.calls.contains { $0.message == "Paused" }) }
    }

    @Test func electroluxsDoorBinarySensorArmsTheUnloadReminder() throws {
        let (result, _) = try Fixture.replay("electrolux-washer-normal.jsonl", Fixture.settings("washer", .electrolux))
        let reminders = result.calls.filter { $0.kind == .reminder }
        #expect(reminders.map(\.at) == [minute(3 + 150 + 30).addingTimeInterval(30)])
    }

    @Test(arguments: [
        ("End Of Cycle", OperationReading.known(.finished)), ("Ready To Start", .known(.ready)),
        ("Delayed Start", .known(.delayedstart)), ("Running", .known(.run)), ("Paused", .known(.pause)),
        ("END_OF_CYCLE", .known(.finished)), ("end of  cycle", .known(.finished)), ("Off", .known(.inactive)),
    ])
    func electroluxStatesMatchWhateverTheirCaseAndSpacing(state: String, expected: OperationReading) {
        #expect(Observation(at: zero, raw: [.operationState: state], profile: .electrolux).operation == expected)
    }

    @Test func aTimeToEndIsReadInItsEntitysUnit() {
        let minutes = Observation(at: zero, raw: [.remainingTime: "150"], units: [.remainingTime: "min"], profile: .electrolux)
        #expect(minutes.finishTime == minute(150))
        let seconds = Observation(at: zero, raw: [.remainingTime: "9000"], units: [.remainingTime: "s"], profile: .electrolux)
        #expect(seconds.finishTime == minute(150))
        // No unit: minutes, what HA shows (the integration's suggested display unit).
        #expect(Observation(at: zero, raw: [.remainingTime: "150"], profile: .electrolux).finishTime == minute(150))
    }

    // MARK: The other brands, paused and nasty

    @Test(arguments: [BrandProfile.miele, .lgThinQ, .smartThings, .whirlpool], ["paused", "nasty"])
    func everyBrandEndsOnTimeThroughPausesReconnectsAndUnknownTimes(profile: BrandProfile, scenario: String) throws {
        let (result, _) = try Fixture.replay("\(profile.rawValue)-\(scenario).jsonl", Fixture.settings("washer", profile))
        let pause = scenario == "paused" ? 10.0 : 0
        #expect(result.cycles.map(\.outcome) == [.finished])
        #expect(result.cycles.first?.startedAt == minute(3))
        #expect(result.cycles.first?.endedAt == minute(3 + 90 + pause).addingTimeInterval(30))
        #expect(Self.kinds(result) == [.start, .clear, .end])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        if profile == .miele { #expect(result.cycles.first?.program == "cottons") }
    }

    // MARK: A run that ends without its brand's end state

    @Test func aCancelledWhirlpoolRunIsAbortedAndTheNextRunIsItsOwnCycle() throws {
        let (result, _) = try Fixture.replay("whirlpool-washer-cancelled.jsonl", Fixture.settings("washer", .whirlpool))
        #expect(result.cycles.map(\.outcome) == [.aborted, .finished])
        #expect(result.cycles.map(\.startedAt) == [minute(1), minute(8)])
        #expect(result.cycles.map(\.endedAt) == [minute(5), minute(63)])
        let first = try #require(result.cycles.first)
        #expect(first.calls.map(\.kind) == [.start, .clear])
        #expect(result.calls.filter { $0.kind == .end }.count == 1)
    }

    @Test(arguments: [
        (BrandProfile.miele, "in_use", "off", CycleOutcome.aborted), (.lgThinQ, "running", "power_off", .aborted),
        (.electrolux, "Running", "Ready To Start", .aborted), (.whirlpool, "cycle_washing", "standby", .aborted),
        (.homeConnect, "run", "ready", .finished), (.smartThings, "run", "stop", .finished),
    ])
    func aRunEndingWithoutTheBrandsEndStateIsAborted(profile: BrandProfile, run: String, after: String,
                                                      outcome: CycleOutcome) {
        var harness = Harness(Fixture.settings("washer", profile))
        harness.see(zero, [.operationState: run])
        harness.see(minute(5), [.operationState: after])
        #expect(harness.all.outcomes == [outcome])
        #expect(harness.calls.contains { $0.kind == .end } == (outcome == .finished))
    }

    // MARK: Doors that are binary sensors

    @Test(arguments: [("on", false), ("off", true), ("open", false), ("closed", true), ("locked", true), ("ajar", nil)])
    func aDoorBinarySensorIsOpenWhenOn(state: String, closed: Bool?) {
        #expect(UnloadReminder.isClosed(state) == closed)
    }

    // MARK: Smart plugs

    @Test func aPlugCycleStartsAtTheFirstReadingOfItsLoad() {
        var harness = Harness(Fixture.settings("kettle", .plug))
        harness.see(zero, [.power: "0.4"])
        harness.see(at(30), [.power: "900"])
        harness.see(at(60), [.power: "950"])
        harness.tick(at(90))
        #expect(harness.all.starts == 1)
        #expect(harness.tracker.cycle?.startedAt == at(30))
        // The start call goes out when the start is sure, not back in time.
        #expect(harness.calls.first?.at == at(90))
    }

    @Test func aWashersSoakDoesNotSplitItsCycle() throws {
        let (result, ended) = try Fixture.replay("plug-washer-soak.jsonl", Fixture.settings("washer", .plug))
        #expect(result.cycles.count == 1)
        #expect(result.cycles.first?.outcome == .finished)
        #expect(result.cycles.first?.startedAt == at(300))
        let lastLoad = try #require(result.observations.last { ($0.power ?? 0) >= 2 })
        let off = try #require(result.observations.first { $0.at > lastLoad.at }).at
        #expect(result.cycles.first?.endedAt == off)
        // The soak is what the washer learns it may rest (about 9 minutes).
        let rest = try #require(ended.first?.longestRestSeconds)
        #expect(rest >= 500 && rest <= 560, "\(rest)")
        #expect(Self.kinds(result) == [.start, .clear, .end])
    }

    @Test func aLearnedRestEndsAQuietTailSoonerAndKeepsTheSoak() {
        var settings = Fixture.settings("washer", .plug)
        settings.learned = LearnedDurations(longestRest: 540)
        var harness = Harness(settings)
        harness.see(zero, [.power: "2000"])
        harness.see(at(120), [.power: "1.5"])  // a soak as long as the learned one
        harness.see(at(660), [.power: "300"])
        harness.see(at(900), [.power: "1.5"])  // the display stays on after the cycle
        harness.tick(at(900 + 540 * PlugKind.learnedRestMargin + 59))
        #expect(harness.all.outcomes.isEmpty)
        harness.tick(at(900 + 540 * PlugKind.learnedRestMargin + 60))
        #expect(harness.all.outcomes == [.finished])
        #expect(harness.tracker.lastEndedCycle.map { _ in true } == true)
    }

    @Test func aDishwashersDryingIsPartOfItsCycle() throws {
        let (result, ended) = try Fixture.replay("plug-dishwasher-drying.jsonl", Fixture.settings("dishwasher", .plug))
        #expect(result.cycles.map(\.outcome) == [.finished])
        #expect(result.cycles.first?.startedAt == at(300))
        let lastDraw = try #require(result.observations.last { ($0.power ?? 0) > 0.5 })
        let zeroAt = try #require(result.observations.first { $0.at > lastDraw.at }).at
        #expect(result.cycles.first?.endedAt == zeroAt)
        let rest = try #require(ended.first?.longestRestSeconds)
        #expect(rest >= 1770 && rest <= 1830, "\(rest)")
    }

    @Test func aDryersAntiCreaseBurstsNeitherExtendItsCycleNorStartOne() throws {
        let (result, _) = try Fixture.replay("plug-dryer-anticrease.jsonl", Fixture.settings("dryer", .plug))
        #expect(result.cycles.map(\.outcome) == [.finished])
        #expect(result.cycles.first?.startedAt == at(300))
        // The drying load (and its cool-down) stopped at the first 150 W turn.
        let drying = try #require(result.observations.last { ($0.power ?? 0) >= 200 })
        let stopped = try #require(result.observations.first { $0.at > drying.at }).at
        #expect(result.cycles.first?.endedAt == stopped)
        let end = try #require(result.calls.first { $0.kind == .end })
        #expect(end.at.timeIntervalSince(stopped) <= 300 + 60)
    }

    @Test func burstsAfterTheEndAreRecognisedAsSuch() throws {
        var detector = PowerCycleDetector()
        let context = PowerCycleDetector.Context(settings: PowerSettings(), kind: .dryer)
        func see(_ seconds: Double, _ watts: Double) {
            _ = detector.read(Observation(at: at(seconds), raw: [.power: String(watts)], profile: .plug), context)
        }
        see(0, 2000)
        see(90, 2000)
        #expect(detector.running)
        see(600, 0)
        _ = detector.expire(at: at(900), context)
        #expect(!detector.running)
        for turn in 0..<5 {
            let start = 1000 + Double(turn) * 180
            see(start, 150)
            see(start + 30, 150)
            see(start + 60, 0.8)
        }
        #expect(!detector.running)
        #expect(detector.burstsAfterEnd == 5)
        // Outside the window a minute of load is a cycle again.
        see(5000, 900)
        see(5060, 900)
        #expect(detector.running)
    }

    @Test func aPlugSnapshotFromBeforeRestsStillDecodes() throws {
        let old = #"{"running": true, "belowSince": 100, "lastRaw": [], "lastUnits": []}"#
        let detector = try JSONDecoder().decode(PowerCycleDetector.self, from: Data(old.utf8))
        #expect(detector.running)
        #expect(detector.deadline(PowerCycleDetector.Context(settings: PowerSettings(), kind: .washer)) != nil)
    }

    // MARK: Units travel with the trace

    @Test func aTraceCarriesItsUnitsToTheLinesAfter() throws {
        let lines = [
            #"{"at": "2026-11-02T08:00:00Z", "states": {"remaining_time": "9000"}, "units": {"remaining_time": "s"}}"#,
            #"{"at": "2026-11-02T08:01:00Z", "states": {"remaining_time": "8940"}}"#,
            #"{"at": "2026-11-02T08:02:00Z", "states": {"remaining_time": "148"}, "units": {"remaining_time": "min"}}"#,
        ].enumerated().map { (number: $0.offset + 1, text: $0.element) }
        let trace = try Replay.observations(lines: lines)
        #expect(trace.observations.map { $0.units[.remainingTime] } == ["s", "s", "min"])
        #expect(trace.observations.map { $0.reading(as: .electrolux).finishTime } == Array(repeating: minute(150), count: 3))
    }

    @Test func aTraceUnitMustNameARoleAndBeAString() {
        #expect(throws: TraceError(line: 1, message: "expected units.remaining_time as a string, found the number 60.0")) {
            try TraceLine.parse(#"{"at": "2026-11-02T08:00:00Z", "states": {}, "units": {"remaining_time": 60}}"#, line: 1)
        }
        #expect(throws: TraceError(line: 2, message: "expected units.wattage to name a role of states, found an unknown role")) {
            try TraceLine.parse(#"{"at": "2026-11-02T08:00:00Z", "states": {}, "units": {"wattage": "W"}}"#, line: 2)
        }
    }
}
