import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Phase 3: the real `cycletrack run` tracking ten appliances against the stand-in,
/// polling every second, while the household driver keeps cycles running (then, for
/// the last fifth, lets every appliance idle). Memory from /proc/<pid>/status, CPU
/// time from /proc/<pid>/stat, polls counted at the stand-in.
struct FootprintBenchmark {
    var seconds = 0.0
    /// VmHWM just before the stop.
    var peakResidentBytes = 0.0
    /// Median VmRSS over the second half of the run.
    var steadyResidentBytes = 0.0
    /// RssAnon and RssFile at the end: what the service allocated, and the mapped
    /// pages of its binary and shared libraries.
    var anonymousBytes = 0.0
    var fileBytes = 0.0
    /// utime + stime over the whole run, start-up included.
    var cpuSeconds = 0.0
    /// CPU over a stretch of polls.
    struct Stretch {
        var cpuSeconds = 0.0
        var ticks = 0

        var perTick: Double { ticks > 0 ? cpuSeconds / Double(ticks) : 0 }
    }

    /// The first 80% of the run after a warm-up (a quarter of it, at most 10 s):
    /// every appliance changes on every poll.
    var busy = Stretch()
    /// The last 20%, all appliances idle, from 3 s after they went idle: nothing changes.
    var idle = Stretch()
    /// /proc counts CPU time in clock ticks: a stretch's total is known to this much.
    var cpuResolutionSeconds = 0.01
    var polls = 0
    var pushes = 0
    var cyclesDriven = 0
    var exitStatus: ChildProcess.Status?
    var shutdownSeconds = 0.0

    /// CPU and polls at one moment, to measure a stretch of the run.
    private struct Mark {
        var cpu: Double
        var polls: Int
    }

    static func run(harness: ServiceHarness, workspace: BenchWorkspace, seconds: Double, seed: UInt64)
        throws(BenchError) -> FootprintBenchmark {
        // Busy until `busyEnd` (CPU measured after the warm-up), then every appliance
        // idle (CPU measured once the cycles' last calls are out).
        let busyEnd = seconds * 0.8
        let warmUp = min(10, busyEnd / 4)
        let idleFrom = busyEnd + min(3, (seconds - busyEnd) / 3)
        var driver = HouseholdDriver(appliances: harness.appliances, seed: seed)
        driver.drive(harness.standIn, time: 0, now: Date())
        let process = try harness.startService(database: workspace.path("footprint.sqlite"), logName: "footprint")
        let probe = ProcessProbe(pid: process.pid)
        let timer = Stopwatch()
        var marks: [String: Mark] = [:]
        var residentSamples: [Double] = []
        var nextSample = 1.0
        var result = FootprintBenchmark()
        result.cpuResolutionSeconds = probe.secondsPerTick
        while timer.seconds < seconds {
            if let status = process.poll() {
                throw BenchError("cycletrack run ended early (\(status)) after \(Summary.fixed(timer.seconds, 1)) s: \(process.stderrTail())")
            }
            let now = timer.seconds
            if now < busyEnd { driver.drive(harness.standIn, time: now, now: Date()) } else { driver.rest(harness.standIn) }
            for (name, from) in [("warm", warmUp), ("busyEnd", busyEnd), ("idle", idleFrom)] where marks[name] == nil && now >= from {
                marks[name] = Mark(cpu: try probe.sample().cpuSeconds, polls: harness.pollsAnswered())
            }
            if now >= nextSample {
                nextSample += 1
                let sample = try probe.sample()
                if now >= seconds / 2 { residentSamples.append(sample.residentBytes) }
            }
            usleep(250_000)
        }
        let final = try probe.sample()
        let end = Mark(cpu: final.cpuSeconds, polls: harness.pollsAnswered())
        result.seconds = timer.seconds
        result.polls = end.polls
        result.pushes = harness.standIn.notifyCalls.count
        result.cyclesDriven = driver.cyclesStarted
        result.peakResidentBytes = final.peakResidentBytes
        result.steadyResidentBytes = Summary.median(residentSamples) ?? final.residentBytes
        result.cpuSeconds = final.cpuSeconds
        result.anonymousBytes = final.anonymousBytes
        result.fileBytes = final.fileBytes
        if let from = marks["warm"], let to = marks["busyEnd"], to.polls > from.polls {
            result.busy = Stretch(cpuSeconds: to.cpu - from.cpu, ticks: to.polls - from.polls)
        }
        if let from = marks["idle"], end.polls > from.polls {
            result.idle = Stretch(cpuSeconds: end.cpu - from.cpu, ticks: end.polls - from.polls)
        }
        guard result.polls > 0 else {
            _ = harness.stop(process)
            throw BenchError("the stand-in answered no poll in \(Summary.fixed(seconds, 0)) s: \(process.stderrTail())")
        }
        let stop = harness.stop(process)
        result.exitStatus = stop.status
        result.shutdownSeconds = stop.seconds
        return result
    }
}
