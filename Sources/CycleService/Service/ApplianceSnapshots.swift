import CycleCore
import CycleHistory
import FoundationEssentials

/// Makes the appliances' snapshots (`ApplianceSnapshot`), the one value the local API
/// serves and `sensor.cycletrack_<id>` is posted from: the household's state now, with
/// what it remembers besides (each appliance's last ended cycle, its energy total, HA's
/// device id). A value without I/O: the runner always has one, so a command is always
/// answered with a snapshot, with or without a Home Assistant to post to.
struct ApplianceSnapshots: Equatable {
    /// The last ended cycle of one appliance, as its snapshot shows it.
    struct LastCycle: Equatable {
        var outcome: CycleOutcome
        var endedAt: Date?
        var program: String?
        var duration: Double
        var energy: Double?
        /// The operation state read at the end: the outcome is shown until it changes.
        var endReading: String?
        var shown: Bool
    }

    private(set) var last: [String: LastCycle] = [:]
    /// The energy of every stored cycle per appliance, kWh: the store's sum at the start, then each cycle's.
    var energyTotals: [String: Double] = [:]
    /// HA's device id per appliance, from discovery.
    var deviceIDs: [String: String] = [:]

    /// Takes the last ended cycle of an appliance from the history (the first one given counts).
    mutating func remember(_ cycle: CycleRecord) {
        guard let outcome = cycle.outcome, let ended = cycle.endedAt, last[cycle.applianceID] == nil else { return }
        last[cycle.applianceID] = LastCycle(outcome: outcome, endedAt: ended, program: cycle.program,
                                            duration: ended.timeIntervalSince(cycle.startedAt), energy: cycle.energyKWh,
                                            endReading: nil, shown: false)
    }

    /// Notes what the steps ended, and an outcome no longer shown once the operation state moved on.
    mutating func take(_ steps: [Household.Step]) {
        for step in steps {
            let id = step.applianceID
            if step.ended == nil, let reading = step.observation?.raw[.operationState],
               let before = last[id], before.shown, reading != before.endReading {
                last[id]?.shown = false
            }
            for case .cycleEnded(let at, let outcome) in step.effects {
                let cycle = step.ended
                let energy = Self.energy(of: cycle)
                last[id] = LastCycle(outcome: outcome, endedAt: at, program: cycle?.program,
                                     duration: cycle.map { at.timeIntervalSince($0.startedAt) } ?? 0,
                                     energy: energy, endReading: step.observation?.raw[.operationState], shown: true)
                if let energy { energyTotals[id, default: 0] += energy }
            }
        }
    }

    /// A cycle's energy when it is a plausible amount, kWh.
    static func energy(of cycle: CycleInfo?) -> Double? {
        cycle?.energyUsed.flatMap { NumberText.isPlausible($0) && $0 >= 0 ? $0 : nil }
    }

    /// Every followed appliance's snapshot, in the household's order.
    func all(_ household: Household) -> [ApplianceSnapshot] {
        household.order.map { snapshot($0, household: household) }
    }

    /// The appliance as the entity and the local API show it.
    func snapshot(_ id: String, household: Household) -> ApplianceSnapshot {
        let tracker = household.tracker(id)
        let settings = tracker?.settings ?? ApplianceSettings(id: id, name: id)
        let status = tracker?.status ?? ApplianceStatus(phase: .idle)
        let cycle = tracker?.cycle
        let previous = last[id]
        let state = if status.phase == .idle, let previous, previous.shown { previous.outcome.rawValue } else { status.phase.rawValue }
        let program = status.program ?? cycle?.program
        let lastCycle = previous.map {
            ApplianceSnapshot.LastCycle(outcome: $0.outcome, endedAt: $0.endedAt, duration: $0.duration, energy: $0.energy, program: $0.program)
        }
        return ApplianceSnapshot(
            id: id, name: settings.name, profile: settings.profile, deviceID: deviceIDs[id], state: state,
            running: cycle != nil, program: program, progress: status.progress, finish: status.finishTime,
            startedAt: cycle?.startedAt, pushes: cycle?.calls, lastCycle: lastCycle, energyTotal: energyTotals[id] ?? 0,
            icon: settings.icon ?? ApplianceIcon.guess(programKey: program ?? previous?.program, name: settings.name),
            settings: settings, liveActivityShown: tracker?.hasLiveActivity ?? false,
            awaitsUnloading: tracker?.awaitsUnloading ?? false)
    }
}
