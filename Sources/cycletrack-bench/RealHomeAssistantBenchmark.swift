import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `--real-ha`: the release `cycletrack run`, in `events` mode, against a real Home
/// Assistant 2026.11.0 (``RealHomeAssistant``) following the `home_connect` stand-in's
/// dishwasher (five entities) with `settle_seconds` and `min_update_seconds` at 0.
///
/// - **Latency.** ``LatencyScript``'s changes, each one `home_connect.set_state` call
///   (HA then writes the entities one by one, each its own `state_changed`; asked to
///   coalesce, as the service asks, it sends them as one WebSocket message). Measured with
///   HA's own timestamps: from the `time_fired` of the `state_changed` event (the state's
///   `last_updated`, the earliest of the entities the change set) to the `time_fired` of
///   the `call_service` event of the first `supernotify.notify` call after it; and from
///   just before the benchmark sent the action. While it waits, the benchmark reads only
///   what was appended, every 5 ms: it must not take the CPU it measures.
/// - **One observation per burst.** The service's `changed` lines (debug log) between
///   one change and the next: each change should make exactly one.
/// - **Back after a restart.** With a cycle running and the subscription over 30 s
///   old, hass is stopped (SIGTERM) and started again; `GET /api/` is asked every 5 ms from its start, and the service's
///   log read as often: from HA's first 200 to `events_connected` (subscribed) and to
///   the `polled` after it (its first read done).
struct RealHomeAssistantBenchmark {
    var fromState: [Double] = []
    var fromRequest: [Double] = []
    var changes = 0
    var multiEntityChanges = 0
    /// Changes that did not make exactly one observation, described.
    var burstProblems: [String] = []
    var problems: [String] = []
    /// Per restart: seconds from HA's first answer to subscribed, and to the first read done.
    var restartConnected: [Double] = []
    var restartBack: [Double] = []
    /// The extra restart right after the last, its subscription younger than 30 s: answering → back.
    var youngRestartBack: Double?
    /// Per restart: the first change after it reached Supernotify (seconds from its state).
    var afterRestart: [Double] = []
    var loads: [String] = []
    var exitStatus: ChildProcess.Status?
    /// The one-minute load average as the changes began: the quiet target is judged below 1.
    var loadAtStart: Double?
    /// How often the benchmark looks at the files while a change is under way.
    static let quietPoll = 0.005

    static func run(paths: BenchPaths, workspace: BenchWorkspace, changes count: Int, restarts: Int,
                    seed: UInt64) throws(BenchError) -> RealHomeAssistantBenchmark {
        guard let root = paths.packageRoot else { throw BenchError("--real-ha needs the package (scripts/ha, the fixture config)") }
        if let reason = RealHomeAssistant.availability(packageRoot: root) {
            throw BenchError("Home Assistant \(RealHomeAssistant.version) is not available: \(reason)")
        }
        guard let appliance = HouseholdAppliance.all.first else { throw BenchError("the household has no appliance") }
        var result = RealHomeAssistantBenchmark()
        Console.progress("real HA: starting Home Assistant \(RealHomeAssistant.version) (onboarding; about a minute)")
        let ha = try RealHomeAssistant(packageRoot: root, workspace: workspace)
        try ha.start()
        defer { ha.stop() }
        let settings = ServiceConfigFile.Settings(updates: "events", activePollSeconds: 3600, idlePollSeconds: 3600,
                                                  settleSeconds: 0, minUpdateSeconds: 0)
        let config = workspace.path("real-ha.json")
        try ServiceConfigFile(url: ha.url, tokenFile: ha.tokenFile, settings: settings, appliances: [appliance]).write(to: config)
        var environment = ProcessInfo.processInfo.environment
        for key in ["HA_TOKEN", "SUPERVISOR_TOKEN", "CYCLETRACK_CONFIG", "CYCLETRACK_DB"] { environment[key] = nil }
        environment["CYCLETRACK_LOG"] = "debug"
        let logPath = workspace.path("real-ha.log")
        let service = try ChildProcess(executable: paths.cycletrack,
                                       arguments: ["run", "--config", config, "--db", workspace.path("real-ha.sqlite")],
                                       environment: environment, stdoutPath: workspace.path("real-ha.out"), stderrPath: logPath)
        let session = Session(ha: ha, service: service, log: LogTail(path: logPath), calls: ha.callLog())
        let (subscribed, _) = try session.waitFor(["event=events_connected", "event=polled"], from: 0, seconds: 60)

        result.loads.append("latency start: " + MachineLoad.now())
        result.loadAtStart = MachineLoad.oneMinute()
        var rng = SplitMix64(seed: seed ^ 0x4EA1)
        try result.measureChanges(LatencyScript(appliance: appliance, runningChanges: count).changes, session, &rng)
        result.loads.append("latency end: " + MachineLoad.now())
        if restarts > 0 {
            try result.measureRestarts(restarts, appliance: appliance, session, subscribed: subscribed)
            result.loads.append("restarts end: " + MachineLoad.now())
        }
        service.send(SIGTERM)
        result.exitStatus = service.wait(timeout: 15)
        return result
    }

    /// Each change: a random pause, the action, its calls; then the observations per change.
    private mutating func measureChanges(_ script: [LatencyScript.Change], _ session: Session,
                                         _ rng: inout SplitMix64) throws(BenchError) {
        var starts: [Int] = []
        for (index, change) in script.enumerated() {
            try session.idle(rng.double(0.2...0.7), every: Self.quietPoll)
            starts.append(session.log.lines.count)
            let before = session.callsSoFar()
            let requested = Date()
            try session.set(change.updates)
            guard change.calls > 0 else { continue }
            guard let first = try session.waitForCall(after: before, seconds: 10) else {
                problems.append("change \(index + 1) (\(change.kind)): no call within 10 s")
                continue
            }
            if !first.line.contains(change.expect) { problems.append("change \(index + 1): first call lacks \"\(change.expect)\"") }
            let set = change.updates.compactMap { session.ha.lastUpdated($0.entity) }.min()
            if let set { fromState.append(first.firedAt.timeIntervalSince(set)) }
            fromRequest.append(first.firedAt.timeIntervalSince(requested))
        }
        try session.idle(0.7, every: Self.quietPoll)
        starts.append(session.log.lines.count)
        changes = script.count
        multiEntityChanges = script.filter { $0.updates.count > 1 }.count
        for (index, change) in script.enumerated() {
            let made = session.log.lines[starts[index]..<starts[index + 1]].filter { $0.text.contains("event=changed") }.count
            if made != 1 {
                burstProblems.append("change \(index + 1) (\(change.updates.count) entities): \(made) observations")
            }
        }
    }

    /// With a cycle running: stop hass, start it again, time the service's return.
    private mutating func measureRestarts(_ restarts: Int, appliance: HouseholdAppliance, _ session: Session,
                                          subscribed first: Date) throws(BenchError) {
        let operation = appliance.entities[.operationState] ?? ""
        let progress = appliance.entities[.progress] ?? ""
        try session.set([(operation, "run"), (progress, "0")])
        try session.idle(1)
        var subscribed = first
        for round in 1...restarts + 1 {
            // A subscription lost within `healthySubscriptionSeconds` (30 s) counts as a
            // failure, unless HA said it was stopping, once: the rounds wait until it is
            // older, as a home's restarts come; the last one restarts HA again at once.
            let young = round > restarts
            if !young { try session.idle(max(0, 32 - Date().timeIntervalSince(subscribed))) }
            Console.progress("real HA: restart \(round)/\(restarts)" + (young ? " + 1, the subscription \(Int(Date().timeIntervalSince(subscribed))) s old" : ""))
            session.ha.stop()
            let mark = session.log.lines.count
            try session.ha.launch()
            var answered: Date?
            let timer = Stopwatch()
            while answered == nil {
                guard timer.seconds < 240 else { throw BenchError("Home Assistant did not answer within 240 s of its restart") }
                session.log.read()
                if session.ha.answering() { answered = Date() } else { usleep(5_000) }
            }
            guard let answered else { continue }
            let (connected, read) = try session.waitFor(["event=events_connected", "event=polled"], from: mark, seconds: 60)
            subscribed = connected
            if young {
                youngRestartBack = read.timeIntervalSince(answered)
            } else {
                restartConnected.append(connected.timeIntervalSince(answered))
                restartBack.append(read.timeIntervalSince(answered))
            }
            try session.ha.waitReady()
            try session.idle(1)
            let before = session.callsSoFar()
            try session.set([(progress, String(10 * round))])
            if let call = try session.waitForCall(after: before, seconds: 10), let set = session.ha.lastUpdated(progress) {
                afterRestart.append(call.firedAt.timeIntervalSince(set))
            } else {
                problems.append("restart \(round): the change after it made no call within 10 s")
            }
        }
    }

    /// The HA, the service and its log, with the waits that keep reading the log.
    final class Session {
        let ha: RealHomeAssistant
        let service: ChildProcess
        let log: LogTail
        let calls: SupernotifyCallLog

        init(ha: RealHomeAssistant, service: ChildProcess, log: LogTail, calls: SupernotifyCallLog) {
            self.ha = ha
            self.service = service
            self.log = log
            self.calls = calls
        }

        /// One `home_connect.set_state` setting the entities in this order.
        func set(_ updates: [(entity: String, state: String)]) throws(BenchError) {
            let body = "{" + updates.map { "\(JSONValue.quoted($0.entity)):\(JSONValue.quoted($0.state))" }.joined(separator: ",") + "}"
            guard let answer = ha.rest.send(.post, "/api/services/home_connect/set_state", json: body), answer.status == 200 else {
                throw BenchError("home_connect.set_state \(body) was not accepted")
            }
        }

        /// Reads the log every `every` seconds (every millisecond by default, where the
        /// moment a line is read is what is measured) for `seconds`.
        func idle(_ seconds: Double, every: Double = 0.001) throws(BenchError) {
            let timer = Stopwatch()
            while timer.seconds < seconds {
                try alive()
                log.read()
                usleep(useconds_t(every * 1_000_000))
            }
        }

        /// How many calls HA has recorded by now.
        func callsSoFar() -> Int {
            calls.read()
            return calls.calls.count
        }

        /// The first call recorded after the first `after`, waiting up to `seconds`. The
        /// call's time is HA's, so reading every 5 ms measures nothing less exactly.
        func waitForCall(after: Int, seconds: Double) throws(BenchError) -> SupernotifyCallLog.Call? {
            let timer = Stopwatch()
            while timer.seconds < seconds {
                try alive()
                log.read()
                calls.read()
                if calls.calls.count > after { return calls.calls[after] }
                usleep(useconds_t(RealHomeAssistantBenchmark.quietPoll * 1_000_000))
            }
            return nil
        }

        /// When the log showed each text in turn (each after the one before), from line `start`.
        @discardableResult
        func waitFor(_ texts: [String], from start: Int, seconds: Double) throws(BenchError) -> (Date, Date) {
            var found: [Date] = []
            var index = start
            let timer = Stopwatch()
            while found.count < texts.count {
                try alive()
                log.read()
                if let hit = log.first(texts[found.count], from: index) {
                    found.append(hit.line.at)
                    index = hit.index + 1
                    continue
                }
                guard timer.seconds < seconds else {
                    throw BenchError("the service's log did not show \(texts[found.count]) within \(Int(seconds)) s: \(service.stderrTail())")
                }
                usleep(1_000)
            }
            return (found[0], found[found.count - 1])
        }

        private func alive() throws(BenchError) {
            if let status = service.poll() { throw BenchError("cycletrack run ended early (\(status)): \(service.stderrTail())") }
        }
    }
}

/// `uptime`'s load averages, from /proc/loadavg.
enum MachineLoad {
    /// The one-minute load average, nil when /proc can't say.
    static func oneMinute() -> Double? {
        averages().first.flatMap { Double($0) }
    }

    static func now() -> String {
        let fields = averages()
        return fields.isEmpty ? "load unknown" : "load average " + fields.joined(separator: ", ")
    }

    /// The 1-, 5- and 15-minute averages as /proc/loadavg writes them; none when it can't be read.
    private static func averages() -> [Substring] {
        guard let data = FileManager.default.contents(atPath: "/proc/loadavg") else { return [] }
        return Array(String(decoding: data, as: UTF8.self).split(separator: " ").prefix(3))
    }
}
