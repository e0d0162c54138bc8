import FoundationEssentials
import Testing
@testable import CycleCore

/// The brand and smart plug traces in `Fixtures/`, replayed through the same household
/// `run` drives: one cycle each, the right outcome, steps sent, no early end.
@Suite struct BrandReplayTests {
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    /// Replays a fixture with `settings`, keeping the cycles as they ended (energy included).
    static func replay(_ name: String, _ settings: ApplianceSettings) throws -> (result: ReplayResult, ended: [CycleInfo]) {
        let text = try String(decoding: Data(contentsOf: fixtures.appending(path: name)), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            (number: $0.offset + 1, text: String($0.element))
        }
        let trace = try Replay.observations(lines: lines)
        var ended: [CycleInfo] = []
        let result = Replay.run(settings: settings, observations: trace.observations) { steps, _ in
            ended += steps.compactMap(\.ended)
        }
        return (result, ended)
    }

    static func settings(_ id: String, _ profile: BrandProfile, _ change: (inout ApplianceSettings) -> Void = { _ in })
        -> ApplianceSettings {
        var settings = ApplianceSettings(id: id, name: ApplianceName.readable(id: id))
        settings.profile = profile
        change(&settings)
        return settings
    }

    // MARK: Brands

    @Test func mieleWasherEndsAtProgramEndedWithProgressFromElapsedAndRemaining() throws {
        let (result, ended) = try Self.replay("miele-washer.jsonl", Self.settings("washer", .miele))
        #expect(result.cycles.count == 1)
        #expect(result.cycles.first?.outcome == .finished)
        #expect(result.cycles.first?.startedAt == minute(3))
        #expect(result.cycles.first?.endedAt == minute(125))
        #expect(result.cycles.first?.program == "cottons")
        let kinds: [CallKind] = result.calls.map(\.kind).filter { $0 != .quiet && $0 != .progress }
        #expect(kinds == [.start, .clear, .end])
        let progress: [Int] = result.calls.compactMap(\.progress)
        #expect(progress.contains { $0 >= 25 && $0 < 50 })
        #expect(progress.contains { $0 >= 75 })
        #expect(progress == progress.sorted())
        #expect(result.calls.first?.when == NumberText.int(minute(3 + 118).timeIntervalSince1970))
        #expect(result.calls.contains { $0.message == "Paused" })
        #expect(result.calls.contains { $0.message?.hasSuffix(" · Rinse") ?? false })
        let energy = try #require(ended.first?.energyUsed)
        #expect(abs(energy - 1.0) < 0.001)
        #expect(result.warnings.isEmpty)
    }

    @Test func lgThinQDryerTakesProgressFromTotalAndFinishTime() throws {
        let (result, _) = try Self.replay("lg_thinq-dryer.jsonl", Self.settings("dryer", .lgThinQ))
        #expect(result.cycles.map(\.outcome) == [.finished])
        #expect(result.cycles.first?.startedAt == minute(2))
        #expect(result.cycles.first?.endedAt == minute(75))
        let kinds: [CallKind] = result.calls.map(\.kind).filter { $0 != .quiet && $0 != .progress }
        #expect(kinds == [.start, .clear, .end])
        #expect(result.calls.first?.progress == 0)
        #expect(result.calls.compactMap(\.progress).contains { $0 >= 75 })
        #expect(result.warnings.isEmpty)
    }

    @Test func smartThingsStopAfterRunEndsTheCycleAsFinished() throws {
        let (result, _) = try Self.replay("smartthings-washer.jsonl", Self.settings("washer", .smartThings))
        #expect(result.cycles.map(\.outcome) == [.finished])
        #expect(result.cycles.first?.startedAt == minute(1))
        #expect(result.cycles.first?.endedAt == minute(66))
        #expect(result.calls.first?.when == NumberText.int(minute(65).timeIntervalSince1970))
        #expect(result.calls.filter { $0.kind == .end }.count == 1)
        #expect(result.warnings.isEmpty)
    }

    @Test func smartThingsDelayWashIsADelayedStart() {
        let waiting = Observation(at: zero, raw: [.operationState: "run", .phase: "delay_wash"], profile: .smartThings)
        #expect(waiting.operation == .known(.delayedstart))
        let washing = Observation(at: zero, raw: [.operationState: "run", .phase: "wash"], profile: .smartThings)
        #expect(washing.operation == .known(.run))
    }

    @Test func whirlpoolCycleStatesAllRunUntilComplete() throws {
        let (result, _) = try Self.replay("whirlpool-washer.jsonl", Self.settings("washer", .whirlpool))
        #expect(result.cycles.map(\.outcome) == [.finished])
        #expect(result.cycles.first?.startedAt == minute(2))
        #expect(result.cycles.first?.endedAt == minute(58))
        #expect(result.calls.filter { $0.kind == .start || $0.kind == .end }.count == 2)
        #expect(result.warnings.isEmpty)
    }

    @Test func electroluxWaitsThroughTheDelayedStartAndReadsSeconds() throws {
        let (result, _) = try Self.replay("electrolux-washer.jsonl", Self.settings("washer", .electrolux))
        #expect(result.cycles.map(\.outcome) == [.finished])
        #expect(result.cycles.first?.startedAt == minute(30))
        #expect(result.cycles.first?.endedAt == minute(127))
        #expect(result.cycles.first?.program == "COTTON")
        #expect(result.calls.first?.when == NumberText.int(minute(30 + 90).timeIntervalSince1970))
        #expect(result.calls.compactMap(\.progress).contains { $0 >= 50 })
        #expect(result.warnings.isEmpty)
    }

    @Test(arguments: [
        (BrandProfile.miele, "in_use", OperationReading.known(.run)),
        (.miele, "program_ended", .known(.finished)),
        (.miele, "waiting_to_start", .known(.delayedstart)),
        (.miele, "rinse_hold", .known(.actionrequired)),
        (.miele, "not_connected", .unavailable),
        (.lgThinQ, "spinning", .known(.run)),
        (.lgThinQ, "end", .known(.finished)),
        (.lgThinQ, "reserved", .known(.delayedstart)),
        (.whirlpool, "cycle_spinning", .known(.run)),
        (.whirlpool, "complete", .known(.finished)),
        (.whirlpool, "cancelled", .known(.aborting)),
        (.electrolux, "END_OF_CYCLE", .known(.finished)),
        (.electrolux, "ALARM", .known(.error)),
        (.homeConnect, "in_use", .unrecognised("in_use")),
        (.miele, "run", .unrecognised("run")),
    ])
    func eachBrandsStatesMapOntoTheOperationStates(profile: BrandProfile, state: String, expected: OperationReading) {
        #expect(Observation(at: zero, raw: [.operationState: state], profile: profile).operation == expected)
    }

    @Test func aRemainingTimeIsAFinishTimeAndAReportedOneWins() {
        let remaining = Observation(at: zero, raw: [.remainingTime: "90", .elapsedTime: "30"], profile: .miele)
        #expect(remaining.finishTime == minute(90))
        #expect(remaining.progress == 25)
        let hours = Observation(at: zero, raw: [.remainingTime: "1.5"], units: [.remainingTime: "h"], profile: .miele)
        #expect(hours.finishTime == minute(90))
        let reported = Observation(at: zero, raw: [.remainingTime: "90", .finishTime: finishA, .progress: "40", .elapsedTime: "30"])
        #expect(reported.finishTime.map { NumberText.int($0.timeIntervalSince1970) } == finishAUnix)
        #expect(reported.progress == 40)
        let total = Observation(at: zero, raw: [.remainingTime: "15", .totalTime: "60"], profile: .lgThinQ)
        #expect(total.progress == 75)
        // LG ThinQ gives its remaining time as a finish time.
        let lg = Observation(at: zero, raw: [.finishTime: ISOTime.format(minute(15)), .totalTime: "60"], profile: .lgThinQ)
        #expect(lg.progress == 75)
        #expect(Observation(at: zero, raw: [.finishTime: ISOTime.format(minute(15))]).progress == nil)
    }

    // MARK: Smart plugs

    @Test func plugWasherRunsThroughItsSoakPausesAndEndsWhenThePowerIsOffForGood() throws {
        let (result, ended) = try Self.replay("plug-washer.jsonl", Self.settings("washer", .plug))
        #expect(result.cycles.count == 1)
        #expect(result.cycles.first?.outcome == .finished)
        // 12 W at 08:10:30, still above 5 W a minute later: the cycle started at 08:10:30.
        #expect(result.cycles.first?.startedAt == at(630))
        let lastDraw = try #require(result.observations.last { ($0.power ?? 0) >= 2 })
        let fellAt = try #require(result.observations.first { $0.at > lastDraw.at }).at
        // Off for good (0.5 W and less) from then on: the cycle ended at the first such reading.
        #expect(result.cycles.first?.endedAt == fellAt)
        let kinds: [CallKind] = result.calls.map(\.kind).filter { $0 != .quiet }
        #expect(kinds == [.start, .clear, .end])
        #expect(result.calls.contains { $0.reason == "heartbeat" })
        let energy = try #require(ended.first?.energyUsed)
        #expect(energy > 0.4 && energy < 0.6)
    }

    @Test func plugDishwasherSurvivesItsSilentDryingWithALongerOffTime() throws {
        let settings = Self.settings("dishwasher", .plug) { $0.power.offSeconds = 1800 }
        let (result, _) = try Self.replay("plug-dishwasher.jsonl", settings)
        #expect(result.cycles.map(\.outcome) == [.finished])
        #expect(result.cycles.first?.startedAt == at(300))
        let pumpOut = try #require(result.observations.last { ($0.power ?? 0) >= 2 })
        let fellAt = try #require(result.observations.first { $0.at > pumpOut.at }).at
        #expect(result.cycles.first?.endedAt == fellAt)
        #expect(result.calls.filter { $0.kind == .end }.count == 1)
    }

    @Test func plugDishwasherKeepsItsSilentDryingAndEndsAtItsPumpOutWithNoSetting() throws {
        // Issue 28, cause 2: drying that draws nothing at all (0.3 W), then a pump-out 20
        // minutes later. With the plain configuration it is one cycle, ended at the pump-out
        // and said so within minutes (it used to end at the drying and make the pump-out a cycle).
        let (result, _) = try Self.replay("plug-dishwasher.jsonl", Self.settings("dishwasher", .plug))
        #expect(result.cycles.map(\.outcome) == [.finished])
        let pumpOut = try #require(result.observations.last { ($0.power ?? 0) >= 2 })
        let fellAt = try #require(result.observations.first { $0.at > pumpOut.at }).at
        #expect(result.cycles.first?.endedAt == fellAt)
        let end = try #require(result.calls.first { $0.kind == .end })
        #expect(end.at.timeIntervalSince(fellAt) <= 600)
    }

    @Test func aPlugStartNeedsTheStartTimeAbove() {
        var harness = Harness(Self.settings("kettle", .plug))
        harness.see(zero, [.power: "0.4"])
        harness.see(at(10), [.power: "2000"])
        harness.see(at(40), [.power: "0.5"])
        harness.tick(at(600))
        #expect(harness.all.starts == 0)
        harness.see(at(700), [.power: "900"])
        harness.tick(at(759))
        #expect(harness.all.starts == 0)
        harness.tick(at(760))
        #expect(harness.all.starts == 1)
        // It started at the first reading of the load.
        #expect(harness.tracker.cycle?.startedAt == at(700))
    }

    @Test func aPlugOutageIsUnavailableNotAnEnd() {
        var harness = Harness(Self.settings("washer", .plug))
        harness.see(zero, [.power: "300"])
        harness.tick(at(60))
        harness.see(at(120), [.power: "unavailable"])
        harness.tick(at(3600))
        #expect(harness.all.outcomes.isEmpty)
        #expect(harness.tracker.status.phase == .unavailable)
        harness.see(at(3700), [.power: "250"])
        #expect(harness.tracker.status.phase == .running)
        #expect(harness.all.starts == 1)
    }

    @Test func aPlugSnapshotCarriesTheConfirmationOver() throws {
        var harness = Harness(Self.settings("washer", .plug))
        harness.see(zero, [.power: "300"])
        var restored = Harness(restoring: harness.tracker.snapshot, settings: Self.settings("washer", .plug))
        restored.tick(at(60))
        #expect(restored.all.starts == 1)
    }
}
