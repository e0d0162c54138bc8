import CycleCore
import FoundationEssentials
import HomeAssistantAPI

/// The HA bus events one household step makes (docs/REFERENCE.md, "In Home Assistant"):
/// pure, for the poster to fire.
enum PostedEvents {
    static let cycleStarted = "cycletrack_cycle_started"
    static let cycleEnded = "cycletrack_cycle_ended"
    static let pushWaiting = "cycletrack_push_waiting"
    static let pushHeldBack = "cycletrack_push_held_back"
    static let anomaly = "cycletrack_anomaly"

    /// The events of `step`, in the order of its effects.
    static func of(_ step: Household.Step, settings: ApplianceSettings?) -> [HomeAssistantEvent] {
        let id = step.applianceID
        let name = settings?.name ?? id
        // An anomaly note that went out as two calls (some people in quiet hours) is one event.
        var noted: Set<String> = []
        return step.effects.compactMap { effect -> HomeAssistantEvent? in
            switch effect {
            case .cycleStarted(let at, let program):
                return event(cycleStarted, [
                    ("appliance_id", .string(id)), ("name", .string(name)),
                    ("program", program.map(JSONValue.string) ?? .null),
                    ("program_name", program.map { .string(ProgramName.readable($0)) } ?? .null),
                    ("started_at", .string(ISOTime.format(at))),
                ])
            case .cycleEnded(let at, let outcome):
                return ended(step, at: at, outcome: outcome, settings: settings)
            case .waiting(let kind, let at, let reason):
                return event(pushWaiting, notice(id, name: name, kind: kind, at: at, reason: reason))
            case .heldBack(let kind, let at, let reason):
                return event(pushHeldBack, notice(id, name: name, kind: kind, at: at, reason: reason))
            case .call(let call):
                guard let anomaly = call.anomaly, noted.insert(call.reason).inserted else { return nil }
                return event(Self.anomaly, notice(id, name: name, kind: call.kind, at: call.at, reason: call.reason)
                    + [("anomaly", .string(anomaly))])
            case .warning, .unloaded:
                return nil
            }
        }
    }

    /// `cycletrack_cycle_ended` with the cycle's summary.
    private static func ended(_ step: Household.Step, at: Date, outcome: CycleOutcome, settings: ApplianceSettings?) -> HomeAssistantEvent {
        let cycle = step.ended
        let duration = cycle.map { at.timeIntervalSince($0.startedAt) }
        let estimateError = cycle?.firstPredictedFinish.map { at.timeIntervalSince($0) }
        let energy = ApplianceSnapshots.energy(of: cycle)
        let cost = cycle?.cost(fixedPrice: settings?.pricePerKWh).flatMap { NumberText.isPlausible($0) ? $0 : nil }
        return event(cycleEnded, [
            ("appliance_id", .string(step.applianceID)), ("name", .string(settings?.name ?? step.applianceID)),
            ("outcome", .string(outcome.rawValue)),
            ("program", cycle?.program.map(JSONValue.string) ?? .null),
            ("program_name", cycle?.program.map { JSONValue.string(ProgramName.readable($0)) } ?? .null),
            ("started_at", cycle.map { JSONValue.string(ISOTime.format($0.startedAt)) } ?? .null),
            ("ended_at", .string(ISOTime.format(at))),
            ("duration_seconds", seconds(duration)),
            ("energy_kwh", energy.map(JSONValue.double) ?? .null),
            ("cost", cost.map { JSONValue.double(($0 * 10_000).rounded() / 10_000) } ?? .null),
            ("currency", (cycle?.currency ?? settings?.currency).map(JSONValue.string) ?? .null),
            ("pushes", cycle.map { JSONValue.int($0.calls) } ?? .null),
            ("estimate_error_seconds", seconds(estimateError)),
        ])
    }

    private static func notice(_ id: String, name: String, kind: CallKind, at: Date, reason: String) -> [(String, JSONValue)] {
        [("appliance_id", .string(id)), ("name", .string(name)), ("kind", .string(kind.rawValue)),
         ("reason", .string(reason)), ("at", .string(ISOTime.format(at)))]
    }

    private static func event(_ type: String, _ data: [(String, JSONValue)]) -> HomeAssistantEvent {
        HomeAssistantEvent(type: type, data: JSONObject(data))
    }

    /// Whole seconds, or null.
    static func seconds(_ value: Double?) -> JSONValue {
        value.flatMap { NumberText.int($0, .toNearestOrAwayFromZero) }.map(JSONValue.int) ?? .null
    }
}
