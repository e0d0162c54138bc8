import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials

/// Writes what the household decided into the history store, one transaction per
/// event, so that a crash or a failed write at any moment leaves either nothing of
/// the event or all of it: the observations, the cycles' rows, every planned call
/// (recorded before it is sent, its body serialised here once), the notices that wait or
/// were dropped, and the trackers' snapshots. `run`, `demo` and `replay --record` all
/// record through it.
///
/// The store's ids are the recorder's alone: it keeps the open cycle's id of each
/// appliance (saved beside the tracker's snapshot), the core never sees them. What was
/// last recorded of an appliance's entities the store knows (`observationDiffers`).
/// Everything it remembers changes only after a commit, so a failed write leaves nothing
/// wrong in it.
public final class CycleRecorder {
    /// One `tracker_state` row: the tracker's snapshot, and the store's id of its open cycle.
    struct SavedAppliance: Codable, Equatable {
        var cycleID: Int64?
        var tracker: ApplianceTracker.Snapshot
    }

    let store: HistoryStore
    /// The cycles' `source` column.
    let source: CycleSource
    /// The store's id of each appliance's open cycle.
    private var openCycles: [String: Int64] = [:]
    private var lastSaved: [String: (saved: SavedAppliance, at: Date)] = [:]
    private var upserted: Set<String> = []
    /// A snapshot that changed without any effect (the latest progress, a finish time that
    /// drifted) is saved at most this often: the next poll after a restart shows the same
    /// again, while everything a restart must not repeat comes with an effect and is saved
    /// in the same transaction.
    static let quietSnapshotSeconds: Double = 60
    private let encoder = JSONEncoder()

    public init(store: HistoryStore, source: CycleSource) {
        self.store = store
        self.source = source
    }

    /// What was saved of the appliance's tracker, or nil (never tracked, or unreadable:
    /// logged); the recorder takes the store's id of its open cycle from the same row.
    public func restore(_ applianceID: String, log: Log) throws(StoreError) -> ApplianceTracker.Snapshot? {
        guard let json = try store.trackerState(applianceID: applianceID) else { return nil }
        do {
            let saved = try JSONDecoder().decode(SavedAppliance.self, from: Data(json.utf8))
            openCycles[applianceID] = saved.cycleID
            return saved.tracker
        } catch {
            log.warning("tracker_state_unreadable", ["appliance": applianceID, "error": "\(error)", "action": "starting fresh"])
            return nil
        }
    }

    /// What a smart plug appliance learned of itself, as last saved in `store` (nil: none
    /// saved, not a plug, or unreadable). For `cycletrack check`.
    public static func savedPlugSignature(_ store: HistoryStore, applianceID: String) throws(StoreError) -> PlugSignature? {
        guard let json = try store.trackerState(applianceID: applianceID),
              let saved = try? JSONDecoder().decode(SavedAppliance.self, from: Data(json.utf8)) else { return nil }
        return saved.tracker.plugSignature
    }

    /// How the appliance's past finish estimates turned out, for the finish-time
    /// correction; nil when the store can't say (logged: the appliance starts without).
    public func finishHistory(_ applianceID: String, log: Log) -> FinishHistory? {
        do {
            return try store.finishHistory(applianceID: applianceID)
        } catch {
            log.error("store_read_failed", ["error": "\(error)", "effect": "no finish-time correction for \(applianceID) until restart"])
            return nil
        }
    }

    /// What one event's recording gives the sender.
    public struct Recorded {
        /// The calls to send, in order, each recorded as `pending`.
        var calls: [QueuedCall] = []
        /// Appliances whose new cycle superseded calls not yet sent: every queued call of
        /// the appliance up to push id `through` is void.
        var superseded: [(applianceID: String, through: Int64)] = []
    }

    /// Records one event's steps, as `household` stands after them, in a single
    /// transaction. When it throws, nothing was written and the recorder is as before:
    /// the caller drops the household it computed and sends nothing.
    /// - Parameter status: `.pending` when the calls will be sent, `.replayed` for replay.
    ///   A call the planner held back is stored as `.notSent` with its reason either way,
    ///   a notice that waits as `.held`, one given up as `.dropped`.
    public func record(_ steps: [Household.Step], of household: Household, status: PushStatus) throws -> Recorded {
        let work = try steps.filter { step throws in try needsWriting(step) }
        let snapshots = snapshotsDue(steps, household: household)
        guard !work.isEmpty || !snapshots.isEmpty else { return Recorded() }

        var cycles = openCycles
        let recorded = try store.transaction { () throws -> (Recorded, [(String, SavedAppliance, Date)]) in
            var recorded = Recorded()
            for step in work {
                try write(step, household: household, status: status, cycles: &cycles, into: &recorded)
            }
            var written: [(String, SavedAppliance, Date)] = []
            for (id, tracker, at) in snapshots {
                // The ids the writes just set belong in the snapshot.
                let saved = SavedAppliance(cycleID: cycles[id], tracker: tracker)
                try store.saveTrackerState(applianceID: id, json: String(decoding: try encoder.encode(saved), as: UTF8.self), at: at)
                written.append((id, saved, at))
            }
            return (recorded, written)
        }
        openCycles = cycles
        for step in work { upserted.insert(step.applianceID) }
        for (id, saved, at) in recorded.1 { lastSaved[id] = (saved, at) }
        return recorded.0
    }

    /// A step with effects, the first of an appliance, or one whose observation the store
    /// would keep; the others (the same states polled again) write nothing.
    private func needsWriting(_ step: Household.Step) throws(StoreError) -> Bool {
        let id = step.applianceID
        guard step.effects.isEmpty, upserted.contains(id) else { return true }
        guard let observation = step.observation else { return false }
        return try store.observationDiffers(applianceID: id, cycleID: openCycles[id], states: Self.states(observation),
                                            units: observation.units)
    }

    /// The trackers' snapshots to save: after an effect, the first of an appliance, and
    /// one that changed quietly at most every `quietSnapshotSeconds`.
    private func snapshotsDue(_ steps: [Household.Step], household: Household) -> [(String, ApplianceTracker.Snapshot, Date)] {
        Set(steps.map(\.applianceID)).compactMap { id -> (String, ApplianceTracker.Snapshot, Date)? in
            guard let tracker = household.saved(id) else { return nil }
            let at = steps.last { $0.applianceID == id }.map(Self.time) ?? Date(timeIntervalSince1970: 0)
            let changedEffects = steps.contains { $0.applianceID == id && !$0.effects.isEmpty }
            let due: Bool = if let last = lastSaved[id] {
                changedEffects || (last.saved.tracker != tracker && at.timeIntervalSince(last.at) >= Self.quietSnapshotSeconds)
            } else {
                true
            }
            return due ? (id, tracker, at) : nil
        }
    }

    private static func time(_ step: Household.Step) -> Date {
        step.observation?.at ?? step.effects.firstTime ?? Date(timeIntervalSince1970: 0)
    }

    /// Every role's state as the store keeps it: a role not reported is `unavailable`.
    private static func states(_ observation: Observation) -> [Role: String] {
        Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, observation.raw[$0] ?? "unavailable") })
    }

    /// One step's rows, inside the caller's transaction: the appliance, the cycle it opens,
    /// the observation, the cycle's figures, then its effects in order.
    private func write(_ step: Household.Step, household: Household, status: PushStatus,
                       cycles: inout [String: Int64], into recorded: inout Recorded) throws {
        let id = step.applianceID
        let at = Self.time(step)
        let settings = household.tracker(id)?.settings
        if !upserted.contains(id) || !step.effects.isEmpty {
            try store.upsertAppliance(id: id, name: settings?.name ?? id, at: at, profile: settings?.profile.rawValue)
        }
        let before = cycles[id]
        // A notice or late call of a cycle already closed belongs to it: looked up before
        // this step opens a new one.
        let closed = before == nil && step.effects.contains(where: Self.belongsToEndedCycle)
            ? try store.lastCycleID(applianceID: id, startedBy: at) : nil
        // A step starts or ends at most one cycle; a cycle that starts with this
        // observation owns it, and one that ends with it too.
        let opened = try openCycle(step, into: &recorded)
        try recordObservationAndFigures(step, cycleID: opened ?? before)
        var current = before
        var owner = before ?? closed
        for effect in step.effects {
            switch effect {
            case .cycleStarted:
                current = opened
                owner = opened
            case .call(let call):
                let body = call.bodyJSON()
                let pushID = try store.recordPush(cycleID: owner, applianceID: id, at: call.at, kind: call.kind,
                                                  reason: call.reason, body: body, status: status)
                recorded.calls.append(QueuedCall(pushID: pushID, applianceID: id, kind: call.kind, reason: call.reason,
                                                 at: call.at, body: body))
            case .cycleEnded(let endedAt, let outcome):
                if let open = current { try close(open, step: step, at: endedAt, outcome: outcome, settings: settings) }
                current = nil
            case .heldBack(let kind, let at, let reason):
                // Stored so the page can say what the planner kept from the phone, and why.
                _ = try store.recordPush(cycleID: owner, applianceID: id, at: at, kind: kind, reason: reason, body: "{}", status: .notSent)
            case .waiting(let kind, let at, let reason):
                _ = try store.recordPush(cycleID: owner, applianceID: id, at: at, kind: kind, reason: reason, body: "{}",
                                         status: effect.dropsNotice ? .dropped : .held)
            case .warning, .unloaded:
                // Nothing of its own to store: the tracker's state is saved with the step.
                break
            }
        }
        cycles[id] = current
    }

    /// An end notification, reminder or notice, which may come after its cycle closed.
    private static func belongsToEndedCycle(_ effect: TrackerEffect) -> Bool {
        switch effect {
        case .call(let call): call.kind == .end || call.kind == .reminder
        case .waiting: true
        default: false
        }
    }

    /// Opens the cycle the step starts, if any, and voids what of the appliance had not
    /// gone out yet: a clear retried into the new cycle would end its Live Activity.
    private func openCycle(_ step: Household.Step, into recorded: inout Recorded) throws(StoreError) -> Int64? {
        let id = step.applianceID
        var opened: Int64?
        for case .cycleStarted(let startedAt, let program) in step.effects {
            let newID = try store.openCycle(applianceID: id, program: program, startedAt: startedAt, source: source)
            if let through = try store.supersedePendingPushes(applianceID: id, byCycle: newID, at: startedAt) {
                recorded.superseded.append((id, through))
                recorded.calls.removeAll { $0.applianceID == id && $0.pushID <= through }
            }
            opened = newID
        }
        return opened
    }

    private func recordObservationAndFigures(_ step: Household.Step, cycleID: Int64?) throws(StoreError) {
        if let observation = step.observation {
            try store.recordObservation(applianceID: step.applianceID, cycleID: cycleID, at: observation.at,
                                        states: Self.states(observation), units: observation.units)
        }
        if let cycleID, let cycle = step.cycle ?? step.ended {
            try store.updateCycle(
                id: cycleID, program: cycle.program, firstPredictedFinish: cycle.firstPredictedFinish,
                lastPredictedFinish: cycle.lastPredictedFinish, maxProgress: cycle.maxProgress,
                energyStart: cycle.recordedEnergyStart, firstShownFinish: cycle.firstShownFinish,
                lastShownFinish: cycle.lastShownFinish, progressEstimated: cycle.progressEstimated == true)
        }
    }

    private func close(_ cycleID: Int64, step: Household.Step, at endedAt: Date, outcome: CycleOutcome,
                       settings: ApplianceSettings?) throws(StoreError) {
        try store.closeCycle(id: cycleID, endedAt: endedAt, outcome: outcome, energyEnd: step.ended?.recordedEnergyEnd,
                             cost: step.ended?.cost(fixedPrice: settings?.pricePerKWh),
                             currency: step.ended?.currency ?? settings?.currency)
        if let rest = step.ended?.longestRestSeconds { try store.recordLongestRest(cycleID: cycleID, seconds: rest) }
    }
}

extension [TrackerEffect] {
    var firstTime: Date? {
        for effect in self {
            switch effect {
            case .cycleStarted(let at, _), .cycleEnded(let at, _), .heldBack(_, let at, _), .waiting(_, let at, _),
                 .unloaded(let at): return at
            case .call(let call): return call.at
            case .warning: continue
            }
        }
        return nil
    }
}
