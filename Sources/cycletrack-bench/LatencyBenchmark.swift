import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Phase 6: how soon a change in Home Assistant becomes a Supernotify call, and what
/// the service costs while nothing changes, in one mode (`events` or `poll`).
///
/// The real `cycletrack run` follows one appliance on a stand-in that serves both HA's
/// REST and WebSocket APIs on one port, with the user's poll intervals (10 s active,
/// 30 s idle) and `settle_seconds`/`min_update_seconds` at 0, so that every change of
/// ``LatencyScript`` is a call. For each change: the wall clock just before the
/// stand-in's entity is set, then the stand-in's arrival time of the first call after
/// it; the latency is the difference. The next change waits for the calls, then a
/// random pause: 0.2-0.7 s in events mode, and in poll mode a uniform fraction of the
/// poll interval in force, so that changes fall at every point between two polls, as
/// they do in a home. Then, with the appliance idle, CPU time over `idleSeconds`.
struct LatencyBenchmark {
    /// The configuration's `updates`.
    var mode: String
    /// Seconds, changes in a running cycle (steps, pause, resume).
    var running: [Double] = []
    /// Seconds, a cycle's start (`ready` → `run`).
    var starts: [Double] = []
    /// Seconds, a cycle's end (`finished`) to its clear.
    var ends: [Double] = []
    /// Changes whose call didn't come within the wait, or whose first call was not the
    /// one expected (described).
    var problems: [String] = []
    /// `POST /api/template` reads the stand-in answered, start to stop.
    var templateReads = 0
    /// `subscribe_entities` the stand-in received.
    var subscriptions = 0
    var pushes = 0
    var idleSeconds = 0.0
    /// CPU time over the idle stretch: the kernel's CPU clock, and /proc's ticks.
    var idleCPUSeconds = 0.0
    var idleCPUTickSeconds = 0.0
    var cpuResolutionSeconds = 0.01
    /// Template reads and calls during the idle stretch.
    var idleTemplateReads = 0
    var idleCalls = 0
    var exitStatus: ChildProcess.Status?

    /// CPU per minute of idling, from the CPU clock.
    var idleCPUPerMinute: Double { idleSeconds > 0 ? idleCPUSeconds / idleSeconds * 60 : 0 }
    /// The same from /proc, and its resolution (one tick over the stretch, per minute).
    var idleTickCPUPerMinute: Double { idleSeconds > 0 ? idleCPUTickSeconds / idleSeconds * 60 : 0 }
    var idleTickResolutionPerMinute: Double { idleSeconds > 0 ? cpuResolutionSeconds / idleSeconds * 60 : 0 }

    static let activePollSeconds = 10.0
    static let idlePollSeconds = 30.0

    /// Runs `cycletrack run` in `mode` through the script, then idles it.
    static func run(mode: String, binary: String, workspace: BenchWorkspace, runningChanges: Int, idleSeconds: Double,
                    seed: UInt64) throws(BenchError) -> LatencyBenchmark {
        guard let appliance = HouseholdAppliance.all.first else { throw BenchError("the household has no appliance") }
        let settings = ServiceConfigFile.Settings(updates: mode, activePollSeconds: activePollSeconds,
                                                  idlePollSeconds: idlePollSeconds, settleSeconds: 0, minUpdateSeconds: 0)
        let harness = try ServiceHarness(workspace: workspace, binary: binary, appliances: [appliance],
                                         name: "latency-\(mode)", settings: settings, webSocket: true)
        let standIn = harness.standIn
        let script = LatencyScript(appliance: appliance, runningChanges: runningChanges)
        var rng = SplitMix64(seed: seed ^ (mode == "events" ? 0xE7E7 : 0x9011))
        var result = LatencyBenchmark(mode: mode)
        let process = try harness.startService(database: workspace.path("latency-\(mode).sqlite"), logName: "latency-\(mode)")
        defer { if process.poll() == nil { _ = harness.stop(process) } }
        let probe = ProcessProbe(pid: process.pid)
        result.cpuResolutionSeconds = probe.secondsPerTick

        // Live: the first read answered and, in events mode, the subscription made.
        let startup = Stopwatch()
        while harness.pollsAnswered() == 0 || (mode == "events" && standIn.entitySubscriptions == 0) {
            if let status = process.poll() {
                throw BenchError("cycletrack run (\(mode)) ended early (\(status)): \(process.stderrTail())")
            }
            guard startup.seconds < 20 else {
                throw BenchError("cycletrack run (\(mode)) was not following the stand-in after 20 s "
                    + "(reads \(harness.pollsAnswered()), subscriptions \(standIn.entitySubscriptions)): \(process.stderrTail())")
            }
            usleep(5_000)
        }

        var idle = true
        for (index, change) in script.changes.enumerated() {
            if change.calls > 0 {
                let interval = idle ? idlePollSeconds : activePollSeconds
                let pause = mode == "events" ? rng.double(0.2...0.7) : rng.double(0...1) * interval
                try wait(pause, for: process, mode: mode)
            }
            let before = standIn.notifyCalls.count
            let changedAt = Date()
            for update in change.updates { standIn.update(entity: update.entity, state: update.state) }
            idle = change.kind == .end || change.kind == .rest
            guard change.calls > 0 else { continue }
            let timeout = (mode == "events" ? 5 : (change.kind == .start ? idlePollSeconds : activePollSeconds)) + 10
            let waited = Stopwatch()
            var calls = standIn.notifyCalls
            while calls.count < before + change.calls && waited.seconds < timeout {
                if let status = process.poll() {
                    throw BenchError("cycletrack run (\(mode)) ended during the latency run (\(status)): \(process.stderrTail())")
                }
                usleep(5_000)
                calls = standIn.notifyCalls
            }
            guard calls.count > before else {
                result.problems.append("change \(index + 1) (\(change.kind)): no call within \(Summary.fixed(timeout, 0)) s")
                continue
            }
            let first = calls[before]
            if !first.body.contains(change.expect) {
                result.problems.append("change \(index + 1) (\(change.kind)): first call lacks \"\(change.expect)\"")
            }
            let latency = first.receivedAt.timeIntervalSince(changedAt)
            switch change.kind {
            case .start: result.starts.append(latency)
            case .running: result.running.append(latency)
            case .end: result.ends.append(latency)
            case .rest: break
            }
        }

        // Idle: whatever the last change left settles, then nothing changes.
        try wait(3, for: process, mode: mode)
        let callsBefore = standIn.notifyCalls.count
        let readsBefore = harness.pollsAnswered()
        let clockBefore = try probe.cpuClockSeconds()
        let ticksBefore = try probe.sample().cpuSeconds
        let idleTimer = Stopwatch()
        try wait(idleSeconds, for: process, mode: mode)
        result.idleCPUSeconds = try probe.cpuClockSeconds() - clockBefore
        result.idleCPUTickSeconds = try probe.sample().cpuSeconds - ticksBefore
        result.idleSeconds = idleTimer.seconds
        result.idleCalls = standIn.notifyCalls.count - callsBefore
        result.idleTemplateReads = harness.pollsAnswered() - readsBefore

        result.templateReads = harness.pollsAnswered()
        result.subscriptions = standIn.webSocketMessages.filter { $0 == "subscribe_entities" }.count
        result.pushes = standIn.notifyCalls.count
        result.exitStatus = harness.stop(process).status
        return result
    }

    /// Sleeps `seconds` in slices of at most 100 ms, failing if the service ends meanwhile.
    private static func wait(_ seconds: Double, for process: ChildProcess, mode: String) throws(BenchError) {
        let timer = Stopwatch()
        while timer.seconds < seconds {
            if let status = process.poll() {
                throw BenchError("cycletrack run (\(mode)) ended early (\(status)): \(process.stderrTail())")
            }
            let left = seconds - timer.seconds
            guard let micros = NumberText.int(min(left, 0.1) * 1_000_000), micros > 0 else { break }
            usleep(UInt32(micros))
        }
    }
}
