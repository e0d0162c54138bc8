import CycleCore
import FoundationEssentials

/// One simulated appliance cycle, rendered as the observations HA would show: what
/// the appliance does (runs, pauses, corrects its estimate, drops off the network)
/// and how often its states are sampled. Times are seconds; fractions are of the
/// running time.
struct CycleSimulation {
    enum Ending {
        /// `finished` for a while (finish time moved to the end), then `ready`.
        case finished(linger: Double)
        /// Straight from `run` to `ready` (some dryers, ovens switched off).
        case ready
        /// `run` → unavailable for a while → `ready`.
        case unavailableThenReady(seconds: Double)
        /// `aborting` at `fraction` of the run, then `ready`.
        case aborted(fraction: Double)
        /// `error` at `fraction` of the run, then `ready` a while later.
        case failed(fraction: Double)
        /// Everything unavailable from `fraction` on for `seconds` (longer than the lost timeout), then `ready`.
        case lost(fraction: Double, seconds: Double)
    }

    struct Pause {
        var fraction: Double
        var seconds: Double
        var actionRequired = false
    }

    struct Window {
        var fraction: Double
        var seconds: Double
    }

    var program: String
    var start: Date
    /// Running time, pauses excluded.
    var runSeconds: Double
    /// Seconds between two samples, drawn from this range each time.
    var sampleEvery: ClosedRange<Double>
    /// How often the appliance sends new progress, remaining time and temperature:
    /// between two events HA keeps showing the same values, however often it is read.
    var eventEvery = 50.0
    var reportsProgress = true
    var reportsFinishTime = true
    /// Oven temperature from, to (reached at 20% of the run).
    var temperature: (from: Double, to: Double)?
    var delayedStartSeconds = 0.0
    /// Estimate corrections: the finish time moves by `seconds` at `fraction`.
    var corrections: [Window] = []
    var pauses: [Pause] = []
    /// Everything unavailable for `seconds` from `fraction` on; the appliance runs on.
    var blips: [Window] = []
    /// Progress stays 0, then jumps to 100 at 97% of the run.
    var jumpsToEnd = false
    /// Chance per sample that the progress shown is one or two points lower.
    var wobble = 0.0
    /// The remaining time sticks at `stuckRemaining` for this long before the end.
    var stuckSeconds = 0.0
    var stuckRemaining = 120.0
    var ending: Ending = .finished(linger: 120)
    /// Seconds of `ready` before and after the cycle.
    var idleSeconds = 180.0

    /// The trace, from idle before the cycle to idle after it.
    func render(using rng: inout SplitMix64) -> [Observation] {
        var lines: [Observation] = []
        var at = start
        func emit(_ raw: [Role: String]) { lines.append(Observation(at: at, raw: raw)) }
        func step() { at = at.addingTimeInterval(rng.double(sampleEvery)) }
        let idleSample = max(sampleEvery.upperBound, 30)

        // Idle, then the program is chosen.
        emit([.operationState: "ready", .program: "unknown", .door: "closed"])
        at = at.addingTimeInterval(idleSeconds / 2)
        emit([.operationState: "ready", .program: program, .door: "closed"])
        at = at.addingTimeInterval(idleSeconds / 2)
        let delayEnd = at.addingTimeInterval(delayedStartSeconds)
        while at < delayEnd {
            emit([.operationState: "delayedstart", .program: program, .door: "locked"])
            at = at.addingTimeInterval(max(idleSample, 60))
        }

        // The run: `active` counts running time; pauses stop it, blips don't.
        let totalRun = runSeconds + stuckSeconds
        let endFraction: Double
        switch ending {
        case .aborted(let fraction), .failed(let fraction), .lost(let fraction, _): endFraction = fraction
        default: endFraction = 1
        }
        var active = 0.0
        var pendingPauses = pauses.sorted { $0.fraction < $1.fraction }
        var pendingBlips = blips.sorted { $0.fraction < $1.fraction }
        var pauseUntil: Date?
        var pausing: Pause?
        var blipUntil: Date?
        var lastProgress = 0
        var previous = at
        // What HA shows between two events from the appliance.
        var shown: [Role: String] = [:]
        var lastEvent: Date?
        while active < totalRun * endFraction {
            let elapsed = at.timeIntervalSince(previous)
            previous = at
            if let until = pauseUntil, at >= until { pauseUntil = nil; pausing = nil }
            if pauseUntil == nil { active += elapsed }
            if let until = blipUntil, at >= until { blipUntil = nil }
            let fraction = active / runSeconds
            if pauseUntil == nil, let next = pendingPauses.first, fraction >= next.fraction {
                pendingPauses.removeFirst()
                pausing = next
                pauseUntil = at.addingTimeInterval(next.seconds)
            }
            if blipUntil == nil, let next = pendingBlips.first, fraction >= next.fraction {
                pendingBlips.removeFirst()
                blipUntil = at.addingTimeInterval(next.seconds)
            }
            if blipUntil != nil {
                emit(unavailable())
                step()
                continue
            }
            if lastEvent.map({ at.timeIntervalSince($0) >= eventEvery }) ?? true {
                lastEvent = at
                if reportsProgress {
                    var progress = jumpsToEnd ? (fraction >= 0.97 ? 100 : 0) : min(99, Int(fraction * 100))
                    if pausing == nil { lastProgress = progress } else { progress = lastProgress }
                    if pausing == nil, progress > 2, rng.chance(wobble) { progress -= rng.int(1...2) }
                    shown[.progress] = String(progress)
                }
                if reportsFinishTime {
                    shown[.finishTime] = finishText(at: at, active: active, fraction: fraction, rng: &rng)
                }
                if let temperature {
                    let warm = min(1, fraction / 0.2)
                    let value = temperature.from + (temperature.to - temperature.from) * warm + rng.double(-3...3)
                    shown[.temperature] = String(Int(value.rounded()))
                }
            }
            var raw = shown
            raw[.program] = program
            raw[.door] = "locked"
            raw[.operationState] = pausing.map { $0.actionRequired ? "actionrequired" : "pause" } ?? "run"
            emit(raw)
            step()
        }
        renderEnding(&lines, at: &at, rng: &rng)
        return lines
    }

    /// HA's finish time: now plus the appliance's remaining time (off by the corrections
    /// still to come, stuck near the end), recomputed on every update so it drifts by seconds.
    private func finishText(at: Date, active: Double, fraction: Double, rng: inout SplitMix64) -> String {
        let pendingError = corrections.filter { $0.fraction > fraction }.reduce(0) { $0 + $1.seconds }
        var remaining = max(0, runSeconds - active) + pendingError
        if active >= runSeconds { remaining = stuckRemaining }
        let finish = at.addingTimeInterval(remaining + rng.double(-20...20))
        return Self.haTime(finish)
    }

    private func renderEnding(_ lines: inout [Observation], at: inout Date, rng: inout SplitMix64) {
        func emit(_ raw: [Role: String]) { lines.append(Observation(at: at, raw: raw)) }
        let idle: [Role: String] = [.operationState: "ready", .program: program, .door: "closed"]
        switch ending {
        case .finished(let linger):
            let until = at.addingTimeInterval(linger)
            repeat {
                var raw: [Role: String] = [.operationState: "finished", .program: program, .door: "closed"]
                if reportsProgress { raw[.progress] = "100" }
                if reportsFinishTime { raw[.finishTime] = Self.haTime(at) }
                emit(raw)
                at = at.addingTimeInterval(max(sampleEvery.upperBound, 30))
            } while at < until
        case .ready:
            break
        case .unavailableThenReady(let seconds):
            let until = at.addingTimeInterval(seconds)
            repeat {
                emit(unavailable())
                at = at.addingTimeInterval(max(sampleEvery.upperBound, 10))
            } while at < until
        case .aborted:
            emit([.operationState: "aborting", .program: program, .door: "locked"])
            at = at.addingTimeInterval(30)
        case .failed:
            emit([.operationState: "error", .program: program, .door: "locked"])
            at = at.addingTimeInterval(300)
        case .lost(_, let seconds):
            let until = at.addingTimeInterval(seconds)
            repeat {
                emit(unavailable())
                at = at.addingTimeInterval(60)
            } while at < until
        }
        emit(idle)
        at = at.addingTimeInterval(idleSeconds)
        emit([.operationState: "inactive", .program: "unknown", .door: "closed"])
    }

    private func unavailable() -> [Role: String] {
        var raw: [Role: String] = [.operationState: "unavailable", .program: "unavailable", .door: "unavailable"]
        if reportsProgress { raw[.progress] = "unavailable" }
        if reportsFinishTime { raw[.finishTime] = "unavailable" }
        if temperature != nil { raw[.temperature] = "unavailable" }
        return raw
    }

    /// `2026-11-02T11:37:00+00:00`, whole seconds, as HA's timestamp sensors show it.
    static func haTime(_ date: Date) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded())
        var text = ISOTime.format(whole)
        if text.hasSuffix("Z") { text.removeLast() }
        return text + "+00:00"
    }
}
