import CycleCore
@testable import CycleHistory
@testable import CycleService
import Foundation
import HTTPStandIn
@testable import HomeAssistantAPI
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The runner when its own store fails, and when HA misbehaves in ways that once made
/// it send twice or not at all: a real SQLite file, a second connection holding the
/// write lock, a full or read-only file system (as root), loopback HTTP, virtual time.
@Suite struct RunnerFaultTests {
    let start = Date(timeIntervalSince1970: 1_793_606_400)  // 2026-11-02T08:00:00Z

    /// Runner wiring shared by the tests; `sink` defaults to the stand-in through HA's client.
    private func runner(
        _ appliances: [TrackedAppliance], standIn: HomeAssistantStandIn, database: String, clock: VirtualClock,
        capture: LogCapture, sink: (any CallSink)? = nil, source: (any ApplianceStateSource)? = nil
    ) throws -> Runner {
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        var options = Runner.Options(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.storeBusyTimeoutMilliseconds = 20
        return try Runner(appliances: appliances, databasePath: database, sourceName: .run, options: options,
                          source: source ?? gateway, sink: sink ?? gateway, clock: clock, log: capture.log)
    }

    private func kinds(_ calls: [HomeAssistantStandIn.ServiceCall]) -> [String] {
        calls.map { call in
            if call.body.contains("\"mobile_push_clear_notification\":true") { return "clear" }
            if call.body.contains("_end\"") { return "end" }
            if call.body.contains("\"silent\":true") { return "quiet" }
            return "start"
        }
    }

    /// A short cycle: ready, 20 minutes of run with progress, finished, ready.
    private func shortCycle(from begin: Date, minutes: Int = 20) -> [(at: Date, raw: [Role: String])] {
        var lines: [(at: Date, raw: [Role: String])] = [(begin, [.operationState: "ready", .program: "unknown"])]
        let program = "dishcare_dishwasher_program_quick_45"
        for minute in 1...minutes {
            lines.append((begin.addingTimeInterval(Double(minute) * 60),
                          [.operationState: "run", .progress: String((minute - 1) * 100 / minutes), .program: program,
                           .finishTime: ISOTime.format(begin.addingTimeInterval(Double(minutes + 1) * 60))]))
        }
        let end = begin.addingTimeInterval(Double(minutes + 1) * 60)
        lines.append((end, [.operationState: "finished", .progress: "99", .program: program]))
        return lines
    }

    // MARK: 1. A store write that fails at a cycle's start or end

    @Test func aStartAndAnEndTheStoreRefusedGoOutOnceWhenItWritesAgain() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let runStart = script.lines[1].at
        let ended = script.lines[script.lines.count - 2].at
        let holder = WriteLockHolder()
        let capture = LogCapture()
        let clock = VirtualClock(start: start, stopAt: script.lines.last!.at.addingTimeInterval(60)) { now in
            script.show(at: now, on: standIn)
            // Another connection holds the write lock for a minute at the start and at the end.
            let locked = (now >= runStart && now < runStart.addingTimeInterval(60))
                || (now >= ended && now < ended.addingTimeInterval(60))
            holder.hold(locked)
        }
        let runner = try runner([script.tracked], standIn: standIn, database: fixture.path(), clock: clock, capture: capture)
        try holder.open(fixture.path())
        await runner.run()
        holder.hold(false)

        #expect(capture.count("store_write_failed") >= 2)
        let sent = kinds(standIn.notifyCalls)
        #expect(sent.first == "start")
        #expect(sent.filter { $0 == "start" }.count == 1)
        #expect(sent.suffix(2) == ["clear", "end"])
        #expect(sent.filter { $0 == "clear" }.count == 1)
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let cycles = try store.cycles(matching: CycleFilter())
        #expect(cycles.count == 1)
        let cycle = try #require(cycles.first)
        #expect(cycle.outcome == .finished)
        // The start was observed late (the lock), not invented: the cycle begins when the store could write.
        #expect(cycle.startedAt >= runStart.addingTimeInterval(60))
        // Everything that went out was recorded first, and recorded as sent.
        let pushes = try store.pushes(cycleID: cycle.id)
        #expect(standIn.notifyCalls.map(\.body) == pushes.map(\.body))
        #expect(pushes.allSatisfy { $0.status == .sent })
    }

    @Test(.enabled(if: TinyFileSystem.canMount, TinyFileSystem.why))
    func aFullDiskLosesNoStartAndSendsNothingUnrecorded() async throws {
        let disk = try #require(try TinyFileSystem(megabytes: 8))
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript(id: "dishwasher", lines: shortCycle(from: start))
        let runStart = script.lines[1].at
        let database = disk.path + "/history.sqlite"
        let capture = LogCapture()
        let clock = VirtualClock(start: start, stopAt: script.lines.last!.at.addingTimeInterval(300)) { now in
            script.show(at: now, on: standIn)
            // The disk fills up just before the cycle starts and is freed five minutes later.
            if now >= runStart.addingTimeInterval(-5), now < runStart.addingTimeInterval(300) { disk.fill() } else { disk.free() }
        }
        let runner = try runner([script.tracked], standIn: standIn, database: database, clock: clock, capture: capture)
        await runner.run()
        disk.free()

        #expect(capture.count("store_write_failed") >= 1)
        let sent = kinds(standIn.notifyCalls)
        #expect(sent.first == "start")
        #expect(sent.filter { $0 == "start" }.count == 1)
        #expect(sent.suffix(2) == ["clear", "end"])
        let store = try HistoryStore(path: database, mode: .readOnly)
        let cycle = try #require(try store.cycles(matching: CycleFilter()).first)
        #expect(cycle.outcome == .finished)
        #expect(standIn.notifyCalls.map(\.body) == (try store.pushes(cycleID: cycle.id)).map(\.body))
    }

    // MARK: 2. A call whose `sending` state could not be recorded

    @Test func anEndWhoseSendingStateTheStoreRefusedIsNotSentTwice() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript(id: "dishwasher", lines: shortCycle(from: start))
        let ended = script.lines.last!.at
        let holder = WriteLockHolder()
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        // The moment HA has taken the clear, another connection takes the write lock.
        let sink = ObservingSink(gateway) { request in
            if request.body.contains("\"mobile_push_clear_notification\":true") { holder.hold(true) }
        }
        let first = try runner([script.tracked], standIn: standIn, database: fixture.path(),
                               clock: VirtualClock(start: start, stopAt: ended.addingTimeInterval(30)) { script.show(at: $0, on: standIn) },
                               capture: LogCapture(), sink: sink)
        try holder.open(fixture.path())
        await first.run()
        #expect(!kinds(standIn.notifyCalls).contains("end"), "the end could not be recorded as sending, so it must wait")
        holder.hold(false)

        // Restarted a minute later, well within the five minutes a pending call stays fresh.
        let capture = LogCapture()
        let second = try runner([script.tracked], standIn: standIn, database: fixture.path(),
                                clock: VirtualClock(start: ended.addingTimeInterval(60), stopAt: ended.addingTimeInterval(400)) {
                                    script.show(at: $0, on: standIn)
                                }, capture: capture)
        await second.run()
        let sent = kinds(standIn.notifyCalls)
        #expect(sent.filter { $0 == "end" }.count == 1)
        #expect(sent.filter { $0 == "start" }.count == 1)
        #expect(sent.last == "end")
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let pushes = try store.pushes(cycleID: try #require(store.cycles(matching: CycleFilter()).first).id)
        #expect(pushes.first { $0.kind == .end }?.status == .sent)
    }

    // MARK: 3. A clear being retried must not end the next cycle's activity

    @Test func aNewCycleSupersedesItsAppliancesUnacceptedClear() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let first = shortCycle(from: start)
        let ended = first.last!.at
        // The next cycle starts 5 s after the first one showed `finished`, and runs its course.
        var lines = first
        lines += shortCycle(from: ended.addingTimeInterval(5 - 60)).dropFirst()
        let script = ApplianceScript(id: "dishwasher", lines: lines)
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let clock = VirtualClock(start: start, stopAt: lines.last!.at.addingTimeInterval(120)) { script.show(at: $0, on: standIn) }
        // Clears are refused (503) for the first 40 s after the first cycle ended.
        let sink = FailingSink(gateway) { request in
            request.body.contains("\"mobile_push_clear_notification\":true") && clock.now() < ended.addingTimeInterval(40)
        }
        let capture = LogCapture()
        let runner = try runner([script.tracked], standIn: standIn, database: fixture.path(), clock: clock,
                                capture: capture, sink: sink)
        await runner.run()

        let accepted = kinds(standIn.notifyCalls)
        #expect(accepted.filter { $0 == "start" }.count == 2)
        let secondStart = try #require(accepted.lastIndex(of: "start"))
        // No clear of the first cycle reached HA after the second start: the only clear
        // accepted is the second cycle's own, at its end.
        #expect(accepted.filter { $0 == "clear" }.count == 1)
        #expect((accepted.firstIndex(of: "clear") ?? 0) > secondStart)
        #expect(accepted.suffix(2) == ["clear", "end"])
        #expect(capture.count("call_superseded") == 2)
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let cycles = try store.cycles(matching: CycleFilter()).sorted { $0.id < $1.id }
        #expect(cycles.count == 2)
        let firstPushes = try store.pushes(cycleID: cycles[0].id)
        #expect(firstPushes.first { $0.kind == .clear }?.status == .superseded)
        #expect(firstPushes.first { $0.kind == .end }?.status == .superseded)
        #expect(try store.unfinishedPushes().isEmpty)
    }

    // MARK: 8. Backoff against a hanging HA

    @Test func theBackoffGrowsAgainstAHomeAssistantThatHangs() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript(id: "dishwasher", lines: shortCycle(from: start))
        let clock = VirtualClock(start: start, stopAt: start.addingTimeInterval(900))
        let source = HangingSource(clock: clock, seconds: 15)
        let runner = try runner([script.tracked], standIn: standIn, database: fixture.path(), clock: clock,
                                capture: LogCapture(), source: source)
        await runner.run()
        let calls = source.calls
        #expect(calls.count >= 6)
        // The wait after each failed request, counted from when it ended: 2, 4, 8, 16 s ... (+ up to 25 %).
        let waits = zip(calls, calls.dropFirst()).map { $1.timeIntervalSince($0) - 15 }
        #expect(waits.prefix(5).allSatisfy { $0 >= 1.9 })
        #expect(zip(waits.prefix(5), waits.prefix(5).dropFirst()).allSatisfy { $1 > $0 }, "waits: \(waits)")
    }

    // MARK: 9. A cycle of an appliance no longer followed

    @Test func anOpenCycleOfAnApplianceNoLongerFollowedEndsAsLostAndIsCleared() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let script = ApplianceScript.dishwasher(start: start)
        let middle = start.addingTimeInterval(60 * 60)
        await (try runner([script.tracked], standIn: standIn, database: fixture.path(),
                          clock: VirtualClock(start: start, stopAt: middle) { script.show(at: $0, on: standIn) },
                          capture: LogCapture())).run()
        #expect(kinds(standIn.notifyCalls).first == "start")

        // The dishwasher is removed from the configuration; the service runs on without it.
        let restart = middle.addingTimeInterval(600)
        let capture = LogCapture()
        await (try runner([], standIn: standIn, database: fixture.path(),
                          clock: VirtualClock(start: restart, stopAt: restart.addingTimeInterval(7 * 3600)),
                          capture: capture)).run()
        #expect(capture.count("open_cycle_untracked") == 1)
        let store = try HistoryStore(path: fixture.path(), mode: .readOnly)
        let cycle = try #require(try store.cycles(matching: CycleFilter()).first)
        #expect(cycle.outcome == .lost)
        #expect(try store.openCycles().isEmpty)
        let sent = kinds(standIn.notifyCalls)
        #expect(sent.last == "clear")
        #expect(sent.filter { $0 == "clear" }.count == 1)
        #expect(!sent.contains("end"))
    }

    // MARK: 10. An unknown operation state is said once

    @Test func anUnknownOperationStateIsWarnedAboutOncePerApplianceAndValue() async throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        var lines = shortCycle(from: start)
        // Ten minutes of a state nobody knows, in the middle of the cycle, then another.
        for minute in 5...14 { lines[minute].raw[.operationState] = "descaling" }
        lines[16].raw[.operationState] = "rinsehold"
        let script = ApplianceScript(id: "dishwasher", lines: lines)
        let capture = LogCapture()
        await (try runner([script.tracked], standIn: standIn, database: fixture.path(),
                          clock: VirtualClock(start: start, stopAt: lines.last!.at.addingTimeInterval(60)) { script.show(at: $0, on: standIn) },
                          capture: capture)).run()
        let warnings = capture.all.filter { $0.contains("event=appliance_warning") }
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains("descaling") })
        #expect(warnings.contains { $0.contains("rinsehold") })
    }
}

// MARK: - Test parts

/// A second connection to the database that takes and releases the write lock.
final class WriteLockHolder: @unchecked Sendable {
    private let state = Mutex<(connection: SQLiteConnection?, held: Bool)>((nil, false))

    func open(_ path: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWriteCreate, busyTimeoutMilliseconds: 2_000)
        state.withLock { $0.connection = connection }
    }

    func hold(_ on: Bool) {
        state.withLock { state in
            guard let connection = state.connection, state.held != on else { return }
            do {
                try connection.execute(on ? "BEGIN IMMEDIATE" : "COMMIT")
                state.held = on
            } catch {
                Issue.record("the second connection could not \(on ? "take" : "release") the write lock: \(error)")
            }
        }
    }
}

/// Forwards to HA, and tells `observe` about each call after HA answered it.
struct ObservingSink: CallSink {
    let base: any CallSink
    let observe: @Sendable (CallRequest) -> Void
    init(_ base: any CallSink, observe: @escaping @Sendable (CallRequest) -> Void) {
        self.base = base
        self.observe = observe
    }
    func notify(_ request: CallRequest) async -> ServiceCallOutcome {
        let outcome = await base.notify(request)
        observe(request)
        return outcome
    }
}

/// Answers 503 for the calls `refuses` picks, without forwarding them; forwards the rest.
struct FailingSink: CallSink {
    let base: any CallSink
    let refuses: @Sendable (CallRequest) -> Bool
    init(_ base: any CallSink, refuses: @escaping @Sendable (CallRequest) -> Bool) {
        self.base = base
        self.refuses = refuses
    }
    func notify(_ request: CallRequest) async -> ServiceCallOutcome {
        guard refuses(request) else { return await base.notify(request) }
        return ServiceCallOutcome(status: 503, error: .server(status: 503, path: "/api/services/supernotify/notify"), latencyMs: 1)
    }
}

/// A Home Assistant whose every request hangs until its timeout: each read takes
/// `seconds` of virtual time and fails.
final class HangingSource: ApplianceStateSource, @unchecked Sendable {
    private let clock: VirtualClock
    private let seconds: Double
    private let started = Mutex<[Date]>([])

    init(clock: VirtualClock, seconds: Double) {
        self.clock = clock
        self.seconds = seconds
    }

    /// When each read began.
    var calls: [Date] { started.withLock { $0 } }

    func read(_ entities: [String]) async throws(SourceFailure) -> [String: EntityState?] {
        started.withLock { $0.append(clock.now()) }
        clock.advance(by: seconds)
        throw SourceFailure("Home Assistant did not answer within \(Int(seconds)) s")
    }
}
