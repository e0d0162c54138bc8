import CycleCore
import CycleService
import FoundationEssentials
import HTTPStandIn

/// A cycle as a list of moments, each what HA shows for one appliance's roles, played
/// into the HA stand-in as virtual time passes.
public struct ApplianceScript: Sendable {
    public var id: String
    public var lines: [(at: Date, raw: [Role: String])]

    public init(id: String, lines: [(at: Date, raw: [Role: String])]) {
        self.id = id
        self.lines = lines
    }

    public func entity(_ role: Role) -> String {
        role == .program ? "select.\(id)_active_program" : "sensor.\(id)_\(role.rawValue)"
    }

    public var tracked: TrackedAppliance {
        TrackedAppliance(settings: ApplianceSettings(id: id, name: Configuration.readableName(id)),
                         entities: Dictionary(uniqueKeysWithValues: [Role.operationState, .progress, .finishTime, .program].map { ($0, entity($0)) }),
                         origin: "config")
    }

    /// Sets the stand-in to the latest line at or before `now`.
    public func show(at now: Date, on standIn: HomeAssistantStandIn) {
        guard let line = lines.last(where: { $0.at <= now }) else { return }
        for role in [Role.operationState, .progress, .finishTime, .program] {
            standIn.set(entity: entity(role), state: line.raw[role] ?? "unavailable", unit: role == .progress ? "%" : nil)
        }
    }

    public var observations: [Observation] { lines.map { Observation(at: $0.at, raw: $0.raw, units: [.progress: "%"]) } }

    /// A dishwasher: idle, Eco 50 for about 3.5 hours with progress every 2 minutes, a
    /// finish time corrected twice, a minute of everything unavailable, a stall at 96%,
    /// `finished` for a while, then `ready`.
    public static func dishwasher(id: String = "dishwasher", start: Date) -> ApplianceScript {
        var lines: [(at: Date, raw: [Role: String])] = [(start, [.operationState: "ready", .program: "unknown"])]
        let program = "dishcare_dishwasher_program_eco_50"
        let runStart = start.addingTimeInterval(120)
        var finish = runStart.addingTimeInterval(210 * 60)
        for step in 0...104 {
            let at = runStart.addingTimeInterval(Double(step) * 120)
            if step == 40 { finish = finish.addingTimeInterval(7 * 60) }
            if step == 80 { finish = finish.addingTimeInterval(-3 * 60) }
            if step == 50 {
                lines.append((at, [.operationState: "unavailable", .program: "unavailable"]))
                continue
            }
            let progress = min(96, step - (step % 11 == 5 ? 1 : 0))
            lines.append((at, [.operationState: "run", .progress: String(progress), .program: program,
                               .finishTime: ISOTime.format(max(finish, at.addingTimeInterval(90)))]))
        }
        let end = runStart.addingTimeInterval(105 * 120)
        lines.append((end, [.operationState: "finished", .progress: "96", .program: program, .finishTime: ISOTime.format(end)]))
        lines.append((end.addingTimeInterval(1800), [.operationState: "ready", .program: "unknown"]))
        return ApplianceScript(id: id, lines: lines)
    }
}
