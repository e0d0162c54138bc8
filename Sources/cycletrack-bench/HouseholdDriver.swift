import CycleCore
import FoundationEssentials
import HTTPStandIn

/// Plays the household on the stand-in, in compressed time, so that `cycletrack run`
/// has cycles to track and pushes to send: each appliance idles a few seconds, runs a
/// cycle of 30-75 s (progress rising with an occasional point back, the finish time
/// drifting by seconds and corrected once by minutes, sometimes a pause, oven
/// temperatures rising), shows `finished` for a few seconds, and starts again.
struct HouseholdDriver {
    private enum Phase {
        case idle(until: Double)
        case running(Run)
        case finished(until: Double)
    }

    private struct Run {
        var start: Double
        var duration: Double
        var program: String
        var pause: ClosedRange<Double>?
        var correction: Double
        var correctionAt: Double
        var targetTemperature: Double

        /// Running time so far, pauses excluded.
        func active(at time: Double) -> Double {
            var active = time - start
            if let pause, time > pause.lowerBound { active -= min(time, pause.upperBound) - pause.lowerBound }
            return active
        }
    }

    private struct Unit {
        var appliance: HouseholdAppliance
        var rng: SplitMix64
        var phase: Phase
    }

    private var units: [Unit]
    /// Cycles begun so far, all appliances.
    private(set) var cyclesStarted = 0

    init(appliances: [HouseholdAppliance], seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        units = appliances.map { appliance in
            var local = rng.split()
            return Unit(appliance: appliance, rng: local, phase: .idle(until: local.double(1...10)))
        }
    }

    /// Sets every entity as it is `time` seconds into the run; `now` is the wall clock
    /// the finish times are computed from.
    mutating func drive(_ standIn: HomeAssistantStandIn, time: Double, now: Date) {
        for index in units.indices {
            if Self.advance(&units[index], time: time) { cyclesStarted += 1 }
            Self.show(&units[index], on: standIn, time: time, now: now)
        }
    }

    /// Shows every appliance idle (`ready`, nothing reported): running cycles end at
    /// the next poll, and nothing changes after that.
    func rest(_ standIn: HomeAssistantStandIn) {
        for unit in units {
            for (role, entity) in unit.appliance.entities {
                let state: String = switch role {
                case .operationState: "ready"
                case .program: "unknown"
                case .door: "closed"
                case .temperature: "21"
                default: "unavailable"
                }
                standIn.update(entity: entity, state: state)
            }
        }
    }

    /// Moves the unit to its next phase when the current one is over; true when a cycle began.
    private static func advance(_ unit: inout Unit, time: Double) -> Bool {
        switch unit.phase {
        case .idle(let until) where time >= until:
            let duration = unit.rng.double(30...75)
            let pauseStart = time + duration * unit.rng.double(0.3...0.7)
            unit.phase = .running(Run(
                start: time, duration: duration, program: unit.rng.pick(unit.appliance.programs),
                pause: unit.rng.chance(0.3) ? pauseStart...(pauseStart + unit.rng.double(3...8)) : nil,
                correction: unit.rng.double(-600...600), correctionAt: duration * unit.rng.double(0.2...0.6),
                targetTemperature: unit.rng.pick([160, 180, 200, 220])))
            return true
        case .running(let run) where run.active(at: time) >= run.duration:
            unit.phase = .finished(until: time + unit.rng.double(3...6))
        case .finished(let until) where time >= until:
            unit.phase = .idle(until: time + unit.rng.double(3...10))
        default:
            break
        }
        return false
    }

    private static func show(_ unit: inout Unit, on standIn: HomeAssistantStandIn, time: Double, now: Date) {
        let entities = unit.appliance.entities
        func set(_ role: Role, _ value: String) {
            if let entity = entities[role] { standIn.update(entity: entity, state: value) }
        }
        switch unit.phase {
        case .idle, .finished:
            let finished: Bool
            if case .finished = unit.phase { finished = true } else { finished = false }
            set(.operationState, finished ? "finished" : "ready")
            set(.progress, finished ? "100" : "unavailable")
            set(.finishTime, finished ? CycleSimulation.haTime(now) : "unavailable")
            if !finished { set(.program, "unknown") }
            set(.door, "closed")
            set(.temperature, "21")
        case .running(let run):
            let active = run.active(at: time)
            let paused = run.pause?.contains(time) ?? false
            set(.operationState, paused ? "pause" : "run")
            set(.program, run.program)
            set(.door, "locked")
            var progress = min(99, Int(active / run.duration * 100))
            if progress > 2, unit.rng.chance(0.05) { progress -= 1 }
            set(.progress, String(progress))
            let correction = active < run.correctionAt ? run.correction : 0
            let remaining = run.duration - active + correction + unit.rng.double(-5...5)
            set(.finishTime, CycleSimulation.haTime(now.addingTimeInterval(max(0, remaining))))
            let warm = min(1, active / (run.duration * 0.3))
            set(.temperature, String(Int(21 + (run.targetTemperature - 21) * warm + unit.rng.double(-2...2))))
        }
    }
}
