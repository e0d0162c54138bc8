import CycleCore
import FoundationEssentials

/// A change the local API's event stream tells (docs/API.md, `GET /api/v1/events`).
public enum ServiceEvent: Sendable, Equatable {
    case appliance(ApplianceSnapshot)
    case service(ServiceSnapshot)
    case cycleStarted(appliance: String, program: String?, at: Date)
    case cycleEnded(appliance: String, outcome: CycleOutcome, duration: Double?, energy: Double?, at: Date)
    case pushSent(appliance: String, kind: CallKind, at: Date)
    case pushHeldBack(appliance: String, kind: CallKind, reason: String, at: Date)
    case reminder(appliance: String, at: Date)
    /// An anomaly note went out (docs/PUSHES.md, "Anomalies"): what it says is wrong, and its reason.
    case anomaly(appliance: String, anomaly: String, reason: String, at: Date)

    /// The events one household event's steps make (the snapshots are added by the caller).
    static func of(_ steps: [Household.Step]) -> [ServiceEvent] {
        var events: [ServiceEvent] = []
        for step in steps {
            let id = step.applianceID
            var noted: Set<String> = []
            for effect in step.effects {
                switch effect {
                case .cycleStarted(let at, let program):
                    events.append(.cycleStarted(appliance: id, program: program, at: at))
                case .cycleEnded(let at, let outcome):
                    let energy = step.ended?.energyUsed.flatMap { NumberText.isPlausible($0) && $0 >= 0 ? $0 : nil }
                    events.append(.cycleEnded(appliance: id, outcome: outcome,
                                              duration: step.ended.map { at.timeIntervalSince($0.startedAt) }, energy: energy, at: at))
                case .call(let call):
                    events.append(.pushSent(appliance: id, kind: call.kind, at: call.at))
                    if call.kind == .reminder { events.append(.reminder(appliance: id, at: call.at)) }
                    // One per note, also when it went out as two calls.
                    if let anomaly = call.anomaly, noted.insert(call.reason).inserted {
                        events.append(.anomaly(appliance: id, anomaly: anomaly, reason: call.reason, at: call.at))
                    }
                case .heldBack(let kind, let at, let reason), .waiting(let kind, let at, let reason):
                    // A notice waiting out quiet hours or for someone home is held back for now.
                    events.append(.pushHeldBack(appliance: id, kind: kind, reason: reason, at: at))
                case .warning, .unloaded:
                    // The `appliance` event that follows says `awaits_unloading`.
                    break
                }
            }
        }
        return events
    }
}
