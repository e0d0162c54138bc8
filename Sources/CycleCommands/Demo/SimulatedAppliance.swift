import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials

/// A Home Connect appliance that follows a realistic cycle as a pure function of time:
/// idle, a run with progress and a finish time that the appliance corrects, optional
/// pause and unavailable blip, progress that stalls at the end, `finished` until the
/// door opens. The demo polls it as the service polls Home Assistant.
struct SimulatedAppliance: Sendable {
    var id: String
    var name: String
    var program: String
    /// Seconds after the demo's origin when the cycle starts.
    var startsAfter: Double
    /// How long the program runs, pause excluded.
    var duration: Double
    /// A pause of `pauseLength` seconds when progress reaches `pauseAt` percent.
    var pauseAt: Int?
    var pauseLength: Double = 0
    /// All entities unavailable for `blipLength` seconds when progress reaches `blipAt`.
    var blipAt: Int?
    var blipLength: Double = 0
    /// The appliance corrects its estimate by this many seconds at 60%.
    var finishCorrection: Double = 0
    /// The door opens this long after `finished`, which turns the state to `ready`.
    var doorOpensAfter: Double = 1800
    /// The energy meter before the cycle, and what one cycle adds, in kWh.
    var meterBefore: Double = 0
    var energyPerCycle: Double = 0

    func entity(_ role: Role) -> String {
        switch role {
        case .program: "select.demo_\(id)_active_program"
        default: "sensor.demo_\(id)_\(role.rawValue)"
        }
    }

    var entities: [Role: String] {
        Dictionary(uniqueKeysWithValues: [Role.operationState, .progress, .finishTime, .program, .door, .energy].map { ($0, entity($0)) })
    }

    /// When the whole scenario is over (the door opened after the end), seconds after the origin.
    var over: Double { startsAfter + duration + pauseLength + blipLength + doorOpensAfter + 60 }

    /// What HA would show at `seconds` after `origin`.
    func states(at seconds: Double, origin: Date) -> [String: EntityState] {
        let unavailable = EntityState(state: "unavailable")
        var shown: [Role: EntityState] = [.operationState: .init(state: "ready"), .program: .init(state: "unknown"),
                                            .door: .init(state: "closed"), .progress: unavailable, .finishTime: unavailable]
        let elapsed = seconds - startsAfter
        let endWall = duration + pauseLength + blipLength
        let used = min(max(elapsed / endWall, 0), 1) * energyPerCycle
        shown[.energy] = .init(state: format3(meterBefore + used), unit: "kWh")
        if elapsed < 0 {
            if elapsed > -120 { shown[.program] = .init(state: program) }
            return named(shown)
        }
        let pauseStart = pauseAt.map { duration * Double($0) / 100 } ?? .infinity
        let blipStart = blipAt.map { duration * Double($0) / 100 } ?? .infinity
        // Running time excludes the pause and the blip.
        var running = elapsed
        if elapsed > pauseStart { running -= min(elapsed - pauseStart, pauseLength) }
        let blipStartWall = blipStart + (blipStart > pauseStart ? pauseLength : 0)
        if elapsed > blipStartWall { running -= min(elapsed - blipStartWall, blipLength) }
        if elapsed >= endWall {
            let afterEnd = elapsed - endWall
            shown[.operationState] = .init(state: afterEnd < doorOpensAfter ? "finished" : "ready")
            shown[.door] = .init(state: afterEnd < doorOpensAfter ? "closed" : "open")
            shown[.program] = .init(state: afterEnd < doorOpensAfter ? program : "unknown")
            if afterEnd < doorOpensAfter { shown[.progress] = .init(state: "96", unit: "%") }
            return named(shown)
        }
        if elapsed >= blipStartWall, elapsed < blipStartWall + blipLength {
            return named(shown.mapValues { _ in unavailable })
        }
        let paused = elapsed >= pauseStart && elapsed < pauseStart + pauseLength
        let fraction = min(running / duration, 1)
        // Progress creeps, wobbles back a point now and then, and stalls at 96% for the
        // last stretch, as real dishwashers do.
        var progress = Int(fraction * 100)
        if progress % 17 == 3, Int(running) % 240 < 60 { progress -= 1 }
        progress = min(max(progress, 0), 96)
        let correction = fraction >= 0.6 ? finishCorrection : 0
        var finish = origin.addingTimeInterval(startsAfter + duration + correction + (elapsed > pauseStart ? pauseLength : 0))
        if paused { finish = origin.addingTimeInterval(seconds + (duration - running) + correction) }
        shown[.operationState] = .init(state: paused ? "pause" : "run")
        shown[.program] = .init(state: program)
        shown[.door] = .init(state: "locked")
        shown[.progress] = .init(state: String(progress), unit: "%")
        // Remaining time sticks at a minute or two at the end, then the state flips.
        let stuck = origin.addingTimeInterval(seconds + 90)
        shown[.finishTime] = .init(state: ISOTime.format(max(finish, stuck)))
        return named(shown)
    }

    private func format3(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    private func named(_ shown: [Role: EntityState]) -> [String: EntityState] {
        Dictionary(uniqueKeysWithValues: shown.map { (entity($0.key), $0.value) })
    }

    /// The dishwasher and washer the demo runs.
    static let demoHousehold = [
        SimulatedAppliance(id: "dishwasher", name: "Dishwasher", program: "dishcare_dishwasher_program_eco_50",
                           startsAfter: 120, duration: 3 * 3600 + 35 * 60, blipAt: 40, blipLength: 150,
                           finishCorrection: 7 * 60, meterBefore: 412.371, energyPerCycle: 0.84),
        SimulatedAppliance(id: "washer", name: "Washer", program: "laundry_care_washer_program_cotton",
                           startsAfter: 900, duration: 2 * 3600 + 20 * 60, pauseAt: 25, pauseLength: 6 * 60,
                           finishCorrection: -4 * 60, doorOpensAfter: 20 * 60, meterBefore: 1_093.5, energyPerCycle: 0.61),
    ]
}
