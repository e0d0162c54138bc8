import CycleCore
@testable import CycleHistory
@testable import CycleService
import FoundationEssentials
import HTTPStandIn
@testable import HomeAssistantAPI
import TestSupport
import Testing

/// The runner against a stand-in Home Assistant over real HTTP on loopback, with a real
/// SQLite file, in virtual time.
@Suite struct RunnerTests {
    let start = Date(timeIntervalSince1970: 1_793_606_400)  // 2026-11-02T08:00:00Z

    private func makeRunner(
        _ scripts: [ApplianceScript], standIn: HomeAssistantStandIn, database: String, until stop: Date,
        from begin: Date? = nil, capture: LogCapture, onAdvance: (@Sendable (Date) -> Void)? = nil
    ) throws -> Runner {
        let clock = VirtualClock(start: begin ?? start, stopAt: stop) { now in
            for script in scripts { script.show(at: now, on: standIn) }
            onAdvance?(now)
        }
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        return try Runner(appliances: scripts.map(\.tracked), databasePath: database, sourceName: .run,
                          options: .init(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil),
                          source: gateway, sink: gateway, clock: clock, log: capture.log)
    }

    private func kinds(_ calls: [HomeAssistantStandIn.ServiceCall]) -> [String] {
        calls.map { call in
            if call.body.contains("\"mobile_push_clear_notification\":true") { return "clear" }
            if call.body.contains("_end\"") { return "end" }
            if call.body.contains("\"silent\":true") { return "quiet" }
            return "start"
        }
    }

    @Test func aWholeCycleSendsWhatReplaySendsAndIsStored() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let capture = LogCapture()
        let end = script.lines.last!.at.addingTimeInterval(60)
        let runner = try makeRunner([script], standIn: standIn, database: fixture.path(), until: end, capture: capture)
        await runner.run()

        let sent = standIn.notifyCalls
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let cycles = try store.cycles(matching: CycleFilter())
        #expect(cycles.count == 1)
        let cycle = try #require(cycles.first)
        #expect(cycle.outcome == .finished)
        #expect(cycle.program == "dishcare_dishwasher_program_eco_50")
        let pushes = try store.pushes(cycleID: cycle.id)
        #expect(pushes.allSatisfy { $0.status == .sent && $0.httpStatus == 200 })
        // What reached HA is exactly what was recorded, in order.
        #expect(sent.map(\.body) == pushes.map(\.body))
        #expect(kinds(sent).filter { $0 == "start" }.count == 1)
        #expect(kinds(sent).suffix(2) == ["clear", "end"])
        #expect(sent.count <= 18)

        // Replaying the observations the service stored gives the very same calls: run
        // and replay are one code path.
        let stored = try #require(try StoredCycleTrace.load(cycleID: cycle.id, from: store))
        let replayed = Replay.run(settings: script.tracked.settings, observations: stored.observations)
        #expect(replayed.calls.map { $0.bodyJSON() } == pushes.map(\.body))
        #expect(replayed.calls.map(\.kind) == pushes.map(\.kind))
        // And replaying the script itself gives the same kinds and bodies (times differ by
        // up to one poll interval, which no body carries).
        let fromScript = Replay.run(settings: script.tracked.settings, observations: script.observations)
        #expect(fromScript.calls.map { $0.bodyJSON() } == pushes.map(\.body))
        #expect(capture.count("call") == sent.count)
    }

    @Test func aRestartCarriesOnWithoutASecondStartAndSendsTheClearOnce() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let middle = start.addingTimeInterval(90 * 60)
        let first = try makeRunner([script], standIn: standIn, database: fixture.path(), until: middle, capture: LogCapture())
        await first.run()
        let beforeRestart = standIn.notifyCalls.count
        #expect(kinds(standIn.notifyCalls).first == "start")

        // The service was down for ten minutes; it comes back and carries on.
        let capture = LogCapture()
        let end = script.lines.last!.at.addingTimeInterval(60)
        let second = try makeRunner([script], standIn: standIn, database: fixture.path(), until: end,
                                    from: middle.addingTimeInterval(600), capture: capture)
        await second.run()
        let all = kinds(standIn.notifyCalls)
        #expect(standIn.notifyCalls.count > beforeRestart)
        #expect(all.filter { $0 == "start" }.count == 1)
        #expect(all.filter { $0 == "clear" }.count == 1)
        #expect(all.filter { $0 == "end" }.count == 1)
        #expect(capture.count("cycle_resumed") == 1)
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        #expect(try store.cycles(matching: CycleFilter()).count == 1)
    }

    @Test func aCycleThatEndedWhileTheServiceWasDownIsClearedAtStart() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let middle = start.addingTimeInterval(90 * 60)
        await (try makeRunner([script], standIn: standIn, database: fixture.path(), until: middle, capture: LogCapture())).run()
        // Back long after the end: the appliance shows `ready`.
        let late = script.lines.last!.at.addingTimeInterval(3600)
        await (try makeRunner([script], standIn: standIn, database: fixture.path(), until: late.addingTimeInterval(60),
                              from: late, capture: LogCapture())).run()
        let all = kinds(standIn.notifyCalls)
        #expect(all.filter { $0 == "start" }.count == 1)
        #expect(all.last == "clear" || all.suffix(2) == ["clear", "end"])
        #expect(all.filter { $0 == "clear" }.count == 1)
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        #expect(try store.openCycles().isEmpty)
    }

    @Test func callsInFlightAtACrashAreNotResentButClearsAre() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let store = try fixture.store(appliance: "dishwasher")
        let now = Date()
        let cycle = try store.openCycle(applianceID: "dishwasher", program: nil, startedAt: now, source: .run)
        let start = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: now, kind: .start, reason: "start",
                                         body: #"{"title":"start"}"#, status: .pending)
        try store.markPush(id: start, status: .sending, httpStatus: nil, error: nil, latencyMs: nil, at: now)
        let clear = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: now, kind: .clear, reason: "clear: finished",
                                         body: #"{"title":"clear"}"#, status: .pending)
        try store.markPush(id: clear, status: .sending, httpStatus: nil, error: nil, latencyMs: nil, at: now)
        let quiet = try store.recordPush(cycleID: cycle, applianceID: "dishwasher", at: now, kind: .quiet, reason: "step 10",
                                         body: #"{"title":"fresh quiet"}"#, status: .pending)
        let script = ApplianceScript(id: "dishwasher", lines: [(now, [.operationState: "ready"])])
        await (try makeRunner([script], standIn: standIn, database: fixture.path(), until: now.addingTimeInterval(5),
                              from: now, capture: LogCapture())).run()
        #expect(standIn.notifyCalls.map(\.body) == [#"{"title":"clear"}"#, #"{"title":"fresh quiet"}"#])
        let pushes = try HistoryStore(path: fixture.path(), mode: .readOnly).pushes(cycleID: cycle)
        #expect(pushes.first { $0.id == start }?.status == .abandoned)
        #expect(pushes.first { $0.id == clear }?.status == .sent)
        #expect(pushes.first { $0.id == quiet }?.status == .sent)
    }

    @Test func anOutageIsLoggedOnceAndTheCycleCompletes() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let outageFrom = start.addingTimeInterval(60 * 60), outageTo = start.addingTimeInterval(75 * 60)
        let capture = LogCapture()
        let end = script.lines.last!.at.addingTimeInterval(60)
        let runner = try makeRunner([script], standIn: standIn, database: fixture.path(), until: end, capture: capture) { now in
            let down = now >= outageFrom && now < outageTo
            standIn.override("POST /api/template", with: down ? .closeWithoutAnswer : nil)
        }
        await runner.run()
        #expect(capture.count("ha_unreachable") == 1)
        #expect(capture.count("ha_back") == 1)
        let all = kinds(standIn.notifyCalls)
        #expect(all.filter { $0 == "start" }.count == 1)
        #expect(all.suffix(2) == ["clear", "end"])
    }

    @Test func aClearThatFailsIsRetriedUntilAcceptedAndTheEndWaitsForIt() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let runEnd = script.lines[script.lines.count - 2].at
        let capture = LogCapture()
        let runner = try makeRunner([script], standIn: standIn, database: fixture.path(), until: runEnd.addingTimeInterval(1800),
                                    capture: capture) { now in
            // HA refuses every call from the moment the cycle ends, for two minutes.
            let refusing = now >= runEnd && now < runEnd.addingTimeInterval(120)
            standIn.override("POST /api/services/supernotify/notify", with: refusing ? .respond(.init(status: 500, body: Array("boom".utf8))) : nil)
        }
        await runner.run()
        let accepted = standIn.notifyCalls.filter { $0.status == 200 }
        #expect(kinds(accepted).suffix(2) == ["clear", "end"])
        #expect(kinds(accepted).filter { $0 == "clear" }.count == 1)
        // The clear was refused at least once; nothing else was tried meanwhile (the end
        // waited for it), so every refused call was the clear.
        let failed = capture.all.filter { $0.contains("event=call_failed ") }
        #expect(!failed.isEmpty)
        #expect(failed.allSatisfy { $0.contains("kind=clear") })
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let pushes = try store.pushes(cycleID: try #require(store.cycles(matching: CycleFilter()).first).id)
        #expect(pushes.first { $0.kind == .clear }?.status == .sent)
        #expect(pushes.first { $0.kind == .end }?.status == .sent)
    }

    @Test func aMissingEntityIsReportedOnceAndTreatedAsUnavailable() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        var trimmed = ApplianceScript.dishwasher(start: start)
        trimmed.lines = Array(trimmed.lines.prefix(20))
        let script = trimmed
        var tracked = script.tracked
        tracked.entities[.door] = "sensor.does_not_exist"
        let capture = LogCapture()
        let clock = VirtualClock(start: start, stopAt: script.lines.last!.at) { now in script.show(at: now, on: standIn) }
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let runner = try Runner(appliances: [tracked], databasePath: fixture.path(), sourceName: .run,
                                options: .init(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil),
                                source: gateway, sink: gateway, clock: clock, log: capture.log)
        await runner.run()
        #expect(capture.count("entity_missing") == 1)
        #expect(kinds(standIn.notifyCalls).first == "start")
    }

    @Test func supernotifyMissingAndABadTokenAreSaidPlainlyOnce() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        standIn.override("POST /api/services/supernotify/notify", with: .respond(.init(status: 400, body: Array("Service not found".utf8))))
        var script = ApplianceScript.dishwasher(start: start)
        script.lines = Array(script.lines.prefix(40))
        let capture = LogCapture()
        await (try makeRunner([script], standIn: standIn, database: fixture.path(), until: script.lines.last!.at,
                              capture: capture)).run()
        #expect(capture.count("supernotify_refused") == 1)
        #expect(capture.count("call_failed") > 1)

        let badToken = try HomeAssistantStandIn(token: "the-right-token")
        let clock = VirtualClock(start: start, stopAt: start.addingTimeInterval(3600))
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: badToken.baseURL, token: "a-wrong-token", http: HTTPClient()))
        let tokenCapture = LogCapture()
        let runner = try Runner(appliances: [script.tracked], databasePath: fixture.path("other.sqlite"), sourceName: .run,
                                options: .init(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil),
                                source: gateway, sink: gateway, clock: clock, log: tokenCapture.log)
        await runner.run()
        #expect(tokenCapture.count("ha_token_refused") == 1)
        #expect(tokenCapture.count("ha_unreachable") == 1)
        // Slow retries: at least a minute apart, so about an hour holds well under 60 polls.
        #expect(await runner.polls <= 61)
        #expect(!tokenCapture.all.joined().contains("a-wrong-token"))
    }

    @Test func theDailyBudgetCountsWhatTheStoreAlreadyHoldsForToday() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.store(appliance: "washer")
        // 395 calls earlier today: 5 left of 400. A start needs more than the 2 reserved
        // for its clear and end; a quiet update needs more than 2 + 40.
        let earlier = start.addingTimeInterval(-3600)
        try store.transaction {
            for index in 0..<395 {
                _ = try store.recordPush(cycleID: nil, applianceID: "washer", at: earlier.addingTimeInterval(Double(index)),
                                         kind: .quiet, reason: "earlier", body: "{}", status: .sent)
            }
        }
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let end = script.lines.last!.at.addingTimeInterval(60)
        let capture = LogCapture()
        await (try makeRunner([script], standIn: standIn, database: fixture.path(), until: end, capture: capture)).run()
        #expect(kinds(standIn.notifyCalls) == ["start", "clear", "end"])
        #expect(capture.count("call_held_back") > 0)
    }

    @Test func anOpenCycleOfAnApplianceNoLongerFollowedIsReportedAtStart() async throws {
        let fixture = try StoreFixture()
        let store = try fixture.store(appliance: "old_dryer")
        _ = try store.openCycle(applianceID: "old_dryer", program: nil, startedAt: start, source: .run)
        let standIn = try HomeAssistantStandIn()
        var script = ApplianceScript.dishwasher(start: start)
        script.lines = Array(script.lines.prefix(2))
        let capture = LogCapture()
        await (try makeRunner([script], standIn: standIn, database: fixture.path(), until: start.addingTimeInterval(60),
                              capture: capture)).run()
        #expect(capture.count("open_cycle_untracked") == 1)
        #expect(capture.all.contains { $0.contains("event=open_cycle_untracked appliance=old_dryer") })
    }
}
