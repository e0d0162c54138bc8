import CycleCore
import FoundationEssentials

/// Writes what the core decided into the history store, one transaction per batch of
/// effects, so that a crash at any moment leaves either nothing of the batch or all of
/// it: the observation, the cycle's row, every planned call (recorded before it is
/// sent) and the tracker's snapshot for a restart. `run`, `demo` and `replay --record`
/// all record through it.
final class CycleRecorder {
    let store: HistoryStore
    /// "run", "demo" or "replay": the cycles' `source` column.
    let source: String
    private var cycleIDs: [String: Int64] = [:]
    private var lastEnergy: [String: Double] = [:]
    private var lastRaw: [String: [Role: String]] = [:]
    private var lastSaved: [String: (snapshot: ApplianceTracker.Snapshot, at: Date)] = [:]
    private var upserted: Set<String> = []
    /// A snapshot that changed without any effect (the latest progress, a finish time that
    /// drifted) is saved at most this often: the next poll after a restart shows the same
    /// again, while everything a restart must not repeat comes with an effect and is saved
    /// in the same transaction.
    static let quietSnapshotSeconds: Double = 60
    private let encoder = JSONEncoder()

    init(store: HistoryStore, source: String) {
        self.store = store
        self.source = source
    }

    /// The store's id of the appliance's open cycle, if any.
    func openCycleID(_ applianceID: String) -> Int64? { cycleIDs[applianceID] }

    /// Restores an appliance's tracker and open cycle id from the store, or starts fresh.
    func restoreTracker(settings: ApplianceSettings, log: Log) throws -> ApplianceTracker {
        guard let json = try store.trackerState(applianceID: settings.id) else {
            return ApplianceTracker(settings: settings)
        }
        do {
            let state = try JSONDecoder().decode(PersistedTracker.self, from: Data(json.utf8))
            cycleIDs[settings.id] = state.cycleID
            return ApplianceTracker(settings: settings, restoring: state.tracker)
        } catch {
            log.warning("tracker_state_unreadable", ["appliance": settings.id, "error": "\(error)", "action": "starting fresh"])
            return ApplianceTracker(settings: settings)
        }
    }

    /// What the core decided for one appliance at one moment.
    struct Batch {
        var appliance: ApplianceSettings
        /// nil for a tick between observations.
        var observation: Observation?
        var effects: [TrackerEffect]
        /// The tracker after the effects, for the cycle's row and the snapshot.
        var tracker: ApplianceTracker
    }

    /// Records one batch and returns the calls to send, with their push ids, in order.
    /// - Parameter status: `.pending` when the calls will be sent, `.notSent` for replay.
    @discardableResult
    func record(
        appliance: ApplianceSettings, observation: Observation?, effects: [TrackerEffect], tracker: ApplianceTracker,
        status: PushStatus
    ) throws -> [(pushID: Int64, call: SupernotifyCall)] {
        try record([Batch(appliance: appliance, observation: observation, effects: effects, tracker: tracker)], status: status)[0]
    }

    /// Records every batch of one poll in a single transaction (all of them or none) and
    /// returns, per batch, the calls to send with their push ids, in order.
    func record(_ batches: [Batch], status: PushStatus) throws -> [[(pushID: Int64, call: SupernotifyCall)]] {
        var work: [(batch: Batch, snapshot: ApplianceTracker.Snapshot, at: Date, saveSnapshot: Bool)] = []
        for batch in batches {
            let id = batch.appliance.id
            let snapshot = batch.tracker.snapshot
            let at = batch.observation?.at ?? batch.effects.firstTime ?? Date(timeIntervalSince1970: 0)
            let saveSnapshot: Bool = if let saved = lastSaved[id] {
                !batch.effects.isEmpty
                    || (saved.snapshot != snapshot && at.timeIntervalSince(saved.at) >= Self.quietSnapshotSeconds)
            } else {
                true
            }
            // Polling an idle appliance every half minute must not write every half minute.
            let observationChanged = batch.observation.map { lastRaw[id] != $0.raw } ?? false
            if !batch.effects.isEmpty || observationChanged || saveSnapshot {
                work.append((batch, snapshot, at, saveSnapshot))
            }
        }
        guard !work.isEmpty else { return batches.map { _ in [] } }
        let cycleIDsBefore = cycleIDs
        let planned: [String: [(pushID: Int64, call: SupernotifyCall)]]
        do {
            planned = try store.transaction { () throws -> [String: [(pushID: Int64, call: SupernotifyCall)]] in
                var planned: [String: [(pushID: Int64, call: SupernotifyCall)]] = [:]
                for item in work {
                    planned[item.batch.appliance.id] = try write(item.batch, snapshot: item.saveSnapshot ? item.snapshot : nil,
                                                                 at: item.at, status: status)
                }
                return planned
            }
        } catch {
            // Nothing of the transaction stands, so neither may what it opened or closed.
            cycleIDs = cycleIDsBefore
            throw error
        }
        for item in work {
            let id = item.batch.appliance.id
            upserted.insert(id)
            if let observation = item.batch.observation {
                lastRaw[id] = observation.raw
                if let energy = observation.energy { lastEnergy[id] = energy }
            }
            if item.saveSnapshot { lastSaved[id] = (item.snapshot, item.at) }
        }
        return batches.map { planned[$0.appliance.id] ?? [] }
    }

    /// One batch's rows, inside the caller's transaction.
    private func write(_ batch: Batch, snapshot: ApplianceTracker.Snapshot?, at: Date,
                       status: PushStatus) throws -> [(pushID: Int64, call: SupernotifyCall)] {
        let id = batch.appliance.id
        let effects = batch.effects
        var planned: [(pushID: Int64, call: SupernotifyCall)] = []
        if !upserted.contains(id) || !effects.isEmpty {
            try store.upsertAppliance(id: id, name: batch.appliance.name, at: at)
        }
        // A cycle that starts with this observation owns it; one that ends with it too.
        for case .cycleStarted(let at, let program) in effects where cycleIDs[id] == nil {
            cycleIDs[id] = try store.openCycle(applianceID: id, program: program, startedAt: at, source: source)
        }
        if let observation = batch.observation {
            let states = Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0.rawValue, observation.raw[$0] ?? "unavailable") })
            try store.recordObservation(applianceID: id, cycleID: cycleIDs[id], at: observation.at, states: states)
        }
        if let cycleID = cycleIDs[id], let cycle = batch.tracker.cycle {
            try store.updateCycle(
                id: cycleID, program: cycle.program, firstPredictedFinish: cycle.firstPredictedFinish,
                lastPredictedFinish: cycle.lastPredictedFinish, maxProgress: cycle.maxProgress,
                energyStart: cycle.energyAtStart)
        }
        for effect in effects {
            switch effect {
            case .call(let call):
                let pushID = try store.recordPush(
                    cycleID: cycleIDs[id], applianceID: id, at: call.at, kind: call.kind.rawValue,
                    reason: call.reason, body: call.bodyJSON(), status: status)
                planned.append((pushID, call))
            case .cycleEnded(let at, let outcome):
                if let cycleID = cycleIDs.removeValue(forKey: id) {
                    let energy = batch.observation?.energy ?? lastEnergy[id]
                    try store.closeCycle(id: cycleID, endedAt: at, outcome: outcome.rawValue, energyEnd: energy)
                }
            case .cycleStarted, .heldBack, .warning:
                break
            }
        }
        if let snapshot {
            let persisted = PersistedTracker(cycleID: cycleIDs[id], tracker: snapshot)
            try store.saveTrackerState(applianceID: id, json: String(decoding: try encoder.encode(persisted), as: UTF8.self), at: at)
        }
        return planned
    }
}

/// What is kept per appliance between runs: the core's snapshot and the store's id of
/// the open cycle.
struct PersistedTracker: Codable {
    var cycleID: Int64?
    var tracker: ApplianceTracker.Snapshot
}

extension [TrackerEffect] {
    var firstTime: Date? {
        for effect in self {
            switch effect {
            case .cycleStarted(let at, _), .cycleEnded(let at, _), .heldBack(_, let at, _): return at
            case .call(let call): return call.at
            case .warning: continue
            }
        }
        return nil
    }
}
