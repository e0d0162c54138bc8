import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials

/// Writes what the household decided into the history store, one transaction per
/// event, so that a crash or a failed write at any moment leaves either nothing of
/// the event or all of it: the observations, the cycles' rows, every planned call
/// (recorded before it is sent, its body serialised here once) and the trackers'
/// snapshots. `run`, `demo` and `replay --record` all record through it.
///
/// It keeps no state a failed write could leave wrong: what it remembers (the last
/// observation written, the last snapshot saved) only spares writes, and changes only
/// after a commit. The open cycles' store ids live in the household.
public final class CycleRecorder {
    let store: HistoryStore
    /// The cycles' `source` column.
    let source: CycleSource
    private var lastRaw: [String: [Role: String]] = [:]
    private var lastSaved: [String: (saved: Household.Saved, at: Date)] = [:]
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

    /// What was saved for the appliance, or nil (never tracked, or unreadable: logged).
    public func saved(_ applianceID: String, log: Log) throws(StoreError) -> Household.Saved? {
        guard let json = try store.trackerState(applianceID: applianceID) else { return nil }
        do {
            return try JSONDecoder().decode(Household.Saved.self, from: Data(json.utf8))
        } catch {
            log.warning("tracker_state_unreadable", ["appliance": applianceID, "error": "\(error)", "action": "starting fresh"])
            return nil
        }
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

    /// Records one event's steps in a single transaction and sets the household's open
    /// cycle ids to match. When it throws, nothing was written and `household` is
    /// unchanged: the caller drops the household it computed and sends nothing.
    /// - Parameter status: `.pending` when the calls will be sent, `.replayed` for replay.
    ///   A call the planner held back is stored as `.notSent` with its reason either way.
    public func record(_ steps: [Household.Step], into household: inout Household, status: PushStatus) throws -> Recorded {
        var after = household
        let work = steps.filter { step in
            !step.effects.isEmpty || step.observation.map { lastRaw[step.applianceID] != $0.raw } ?? false
        }
        let ids = Set(steps.map(\.applianceID))
        let snapshots = ids.compactMap { id -> (String, Household.Saved, Date)? in
            guard let saved = after.saved(id) else { return nil }
            let at = steps.last { $0.applianceID == id }.map(Self.time) ?? Date(timeIntervalSince1970: 0)
            let changedEffects = steps.contains { $0.applianceID == id && !$0.effects.isEmpty }
            let due: Bool = if let last = lastSaved[id] {
                changedEffects || (last.saved != saved && at.timeIntervalSince(last.at) >= Self.quietSnapshotSeconds)
            } else {
                true
            }
            return due ? (id, saved, at) : nil
        }
        guard !work.isEmpty || !snapshots.isEmpty else { return Recorded() }

        let recorded = try store.transaction { () throws -> (Recorded, [(String, Household.Saved, Date)]) in
            var recorded = Recorded()
            for step in work {
                try write(step, household: &after, status: status, into: &recorded)
            }
            var written: [(String, Household.Saved, Date)] = []
            for (id, _, at) in snapshots {
                // The ids the writes just set belong in the snapshot.
                guard let saved = after.saved(id) else { continue }
                try store.saveTrackerState(applianceID: id, json: String(decoding: try encoder.encode(saved), as: UTF8.self), at: at)
                written.append((id, saved, at))
            }
            return (recorded, written)
        }
        for step in work {
            upserted.insert(step.applianceID)
            if let observation = step.observation { lastRaw[step.applianceID] = observation.raw }
        }
        for (id, saved, at) in recorded.1 { lastSaved[id] = (saved, at) }
        household = after
        return recorded.0
    }

    private static func time(_ step: Household.Step) -> Date {
        step.observation?.at ?? step.effects.firstTime ?? Date(timeIntervalSince1970: 0)
    }

    /// One step's rows, inside the caller's transaction.
    private func write(_ step: Household.Step, household: inout Household, status: PushStatus,
                       into recorded: inout Recorded) throws {
        let id = step.applianceID
        let at = Self.time(step)
        let name = household.tracker(id)?.settings.name ?? id
        if !upserted.contains(id) || !step.effects.isEmpty {
            try store.upsertAppliance(id: id, name: name, at: at, profile: household.tracker(id)?.settings.profile.rawValue)
        }
        var cycleID = household.cycleID(id)
        // A step starts or ends at most one cycle; a cycle that starts with this
        // observation owns it, and one that ends with it too.
        for case .cycleStarted(let startedAt, let program) in step.effects {
            let newID = try store.openCycle(applianceID: id, program: program, startedAt: startedAt, source: source)
            // Whatever of this appliance has not gone out yet must not go after the new start:
            // a clear retried into the new cycle would end its Live Activity.
            if let through = try store.supersedePendingPushes(applianceID: id, byCycle: newID, at: startedAt) {
                recorded.superseded.append((id, through))
                recorded.calls.removeAll { $0.applianceID == id && $0.pushID <= through }
            }
            cycleID = newID
        }
        if let observation = step.observation {
            let states = Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, observation.raw[$0] ?? "unavailable") })
            try store.recordObservation(applianceID: id, cycleID: cycleID, at: observation.at, states: states,
                                        units: observation.units)
        }
        if let cycleID, let cycle = step.cycle ?? step.ended {
            try store.updateCycle(
                id: cycleID, program: cycle.program, firstPredictedFinish: cycle.firstPredictedFinish,
                lastPredictedFinish: cycle.lastPredictedFinish, maxProgress: cycle.maxProgress,
                energyStart: cycle.recordedEnergyStart, firstShownFinish: cycle.firstShownFinish,
                lastShownFinish: cycle.lastShownFinish, progressEstimated: cycle.progressEstimated == true)
        }
        for effect in step.effects {
            switch effect {
            case .call(let call):
                let body = call.bodyJSON()
                // A reminder comes after its cycle ended: it belongs to that cycle.
                let owner = call.kind == .reminder && cycleID == nil ? try store.lastCycleID(applianceID: id, startedBy: call.at) : cycleID
                let pushID = try store.recordPush(cycleID: owner, applianceID: id, at: call.at, kind: call.kind,
                                                  reason: call.reason, body: body, status: status)
                recorded.calls.append(QueuedCall(pushID: pushID, applianceID: id, kind: call.kind, reason: call.reason,
                                                   at: call.at, body: body))
            case .cycleEnded(let endedAt, let outcome):
                if let open = cycleID {
                    let settings = household.tracker(id)?.settings
                    try store.closeCycle(id: open, endedAt: endedAt, outcome: outcome, energyEnd: step.ended?.recordedEnergyEnd,
                                         cost: step.ended?.cost(fixedPrice: settings?.pricePerKWh),
                                         currency: step.ended?.currency ?? settings?.currency)
                    if let rest = step.ended?.longestRestSeconds { try store.recordLongestRest(cycleID: open, seconds: rest) }
                    cycleID = nil
                }
            case .heldBack(let kind, let at, let reason):
                // Stored so the page can say what the planner kept from the phone, and why.
                _ = try store.recordPush(cycleID: cycleID, applianceID: id, at: at, kind: kind, reason: reason, body: "{}", status: .notSent)
            case .cycleStarted, .waiting, .warning:
                break
            }
        }
        household.setCycleID(cycleID, for: id)
    }
}

extension [TrackerEffect] {
    var firstTime: Date? {
        for effect in self {
            switch effect {
            case .cycleStarted(let at, _), .cycleEnded(let at, _), .heldBack(_, let at, _), .waiting(_, let at, _): return at
            case .call(let call): return call.at
            case .warning: continue
            }
        }
        return nil
    }
}
