import CycleCore
import FoundationEssentials
import HTTPStandIn
import Synchronization
import Testing
import TestSupport
@testable import CycleHistory
@testable import HomeAssistantAPI
@testable import CycleService

/// Commands from the local API taken by the runner between events, in virtual time: a
/// whole dishwasher cycle against the stand-in HA, with a real SQLite file.
@Suite struct RunnerCommandTests {
    let start = Date(timeIntervalSince1970: 1_793_606_400)  // 2026-11-02T08:00:00Z

    /// Plays the dishwasher script, sending `command` once when virtual time reaches `at`.
    private func play(_ command: RunnerCommand, at: Date) async throws
        -> (standIn: HomeAssistantStandIn, store: HistoryStore, outcome: CommandOutcome?, fixture: StoreFixture) {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let link = ServiceLink(version: "test", instanceID: "instance")
        let sent = Mutex<PendingCommand?>(nil)
        let clock = VirtualClock(start: start, stopAt: script.lines.last!.at.addingTimeInterval(60)) { now in
            script.show(at: now, on: standIn)
            if now >= at, sent.withLock({ $0 == nil }) {
                let pending = link.send(command)
                sent.withLock { $0 = pending }
            }
        }
        var options = Runner.Options(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.link = link
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let runner = try Runner(appliances: [script.tracked], databasePath: fixture.path(), sourceName: .run, options: options,
                                source: gateway, sink: gateway, clock: clock, log: LogCapture().log)
        await runner.run()
        let outcome = sent.withLock { $0 }?.wait(0)
        return (standIn, try HistoryStore(path: fixture.path(), mode: .readOnly), outcome, fixture)
    }

    private func reasons(_ store: HistoryStore) throws -> [String] {
        let cycle = try #require(try store.cycles(matching: CycleFilter()).first)
        return try store.pushes(cycleID: cycle.id).map(\.reason)
    }

    @Test func aChangedProgressStepDecidesTheRunningCyclesNextCalls() async throws {
        // Progress is about the script's step number; 30 % is reached 62 minutes in.
        let change = RunnerCommand.changeSettings(applianceID: "dishwasher", .set(ApplianceOverrides(steps: .at([33, 35, 37]))))
        let played = try await play(change, at: start.addingTimeInterval(120 + 31 * 120))
        guard case .done(let snapshot)? = played.outcome else {
            Issue.record("the command was not done: \(String(describing: played.outcome))")
            return
        }
        #expect(snapshot.settings.steps == .at([33, 35, 37]))
        let steps = try reasons(played.store).filter { $0.hasPrefix("step") }
        #expect(steps == ["step 10", "step 20", "step 30", "step 33", "step 35", "step 37"])
        #expect(try reasons(played.store).suffix(2) == ["clear: finished", "end: finished"])
        #expect(try played.store.settingsOverrides()["dishwasher"]?["progress_steps"] == #"{"at":[33,35,37]}"#)
    }

    @Test func endingTheActivityMidCycleSendsOneClearAndStillTheEnd() async throws {
        let played = try await play(.endActivity(applianceID: "dishwasher"), at: start.addingTimeInterval(120 + 40 * 120))
        guard case .done(let snapshot)? = played.outcome else {
            Issue.record("the command was not done: \(String(describing: played.outcome))")
            return
        }
        #expect(!snapshot.liveActivityShown)
        let reasons = try reasons(played.store)
        #expect(reasons.filter { $0.hasPrefix("clear") } == ["clear: asked"])
        #expect(reasons.last == "end: finished")
        #expect(!reasons.drop { $0 != "clear: asked" }.dropFirst().contains { $0.hasPrefix("step") })
        let clears = played.standIn.notifyCalls.filter { $0.body.contains("\"mobile_push_clear_notification\":true") }
        #expect(clears.count == 1)
    }

    @Test func aCommandForAnApplianceNotFollowedIsRefused() async throws {
        let played = try await play(.endActivity(applianceID: "fridge"), at: start.addingTimeInterval(600))
        #expect(played.outcome == .unknownAppliance)
    }
}
