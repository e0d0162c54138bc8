import CycleCore
import CycleService
import FoundationEssentials

/// The local API's JSON shapes (docs/API.md), from the runner's snapshots.
enum APIJSON {
    static func service(_ service: ServiceSnapshot) -> JSONObject {
        JSONObject([
            ("version", .string(service.version)), ("instance_id", .string(service.instanceID)),
            ("home_assistant", .object(JSONObject([
                ("connected", .bool(service.homeAssistantConnected)), ("updates", .string(service.updates)),
            ]))),
            ("pushes_today", .int(service.pushesToday)), ("daily_push_limit", .int(service.dailyPushLimit)),
            ("pushes_left_today", .int(service.pushesLeftToday)),
            ("integration_connected", .bool(service.integrationConnected)),
            // The declared tunable settings, from which the integration makes its entities.
            ("appliance_settings", SettingsJSON.declarations),
        ])
    }

    static func appliance(_ appliance: ApplianceSnapshot) -> JSONObject {
        let last: JSONValue = appliance.lastCycle.map { last in
            .object(JSONObject([
                ("outcome", .string(last.outcome.rawValue)), ("ended_at", time(last.endedAt)),
                ("duration_seconds", seconds(last.duration)), ("energy_kwh", last.energy.map(JSONValue.double) ?? .null),
                ("program", program(last.program)),
            ]))
        } ?? .null
        return JSONObject([
            ("id", .string(appliance.id)), ("name", .string(appliance.name)), ("profile", .string(appliance.profile.rawValue)),
            ("device_id", appliance.deviceID.map(JSONValue.string) ?? .null),
            ("state", .string(appliance.state)), ("running", .bool(appliance.running)),
            ("program", program(appliance.program)), ("program_key", appliance.program.map(JSONValue.string) ?? .null),
            ("progress", appliance.progress.map(JSONValue.int) ?? .null),
            ("finish", time(appliance.finish)), ("started_at", time(appliance.startedAt)),
            ("pushes_this_cycle", .int(appliance.pushes ?? 0)),
            ("live_activity_shown", .bool(appliance.liveActivityShown)),
            ("awaits_unloading", .bool(appliance.awaitsUnloading)),
            ("last_cycle", last),
            ("energy_total_kwh", .double(appliance.energyTotal)),
            ("icon", .string(appliance.icon)),
            ("settings", .object(SettingsJSON.object(appliance.settings))),
        ])
    }

    static func appliances(_ list: [ApplianceSnapshot]) -> JSONObject {
        JSONObject([("appliances", .array(list.map { .object(appliance($0)) }))])
    }

    /// An event of the stream: its `event:` name and its `data:`.
    static func event(_ event: ServiceEvent) -> (name: String, data: JSONObject) {
        switch event {
        case .appliance(let snapshot):
            ("appliance", appliance(snapshot))
        case .service(let snapshot):
            ("service", service(snapshot))
        case .cycleStarted(let id, let program, let at):
            ("cycle_started", JSONObject([("appliance", .string(id)), ("program", self.program(program)), ("at", time(at))]))
        case .cycleEnded(let id, let outcome, let duration, let energy, let at):
            ("cycle_ended", JSONObject([
                ("appliance", .string(id)), ("outcome", .string(outcome.rawValue)),
                ("duration_seconds", duration.map(seconds) ?? .null), ("energy_kwh", energy.map(JSONValue.double) ?? .null),
                ("at", time(at)),
            ]))
        case .pushSent(let id, let kind, let at):
            ("push_sent", JSONObject([("appliance", .string(id)), ("kind", .string(name(kind))), ("at", time(at))]))
        case .pushHeldBack(let id, let kind, let reason, let at):
            ("push_held_back", JSONObject([
                ("appliance", .string(id)), ("kind", .string(name(kind))), ("reason", .string(reason)), ("at", time(at)),
            ]))
        case .reminder(let id, let at):
            ("reminder", JSONObject([("appliance", .string(id)), ("at", time(at))]))
        case .anomaly(let id, let anomaly, let reason, let at):
            ("anomaly", JSONObject([
                ("appliance", .string(id)), ("anomaly", .string(anomaly)), ("reason", .string(reason)), ("at", time(at)),
            ]))
        }
    }

    /// `{"error": code, "message": text}`.
    static func error(_ code: String, _ message: String) -> String {
        JSONObject([("error", .string(code)), ("message", .string(message))]).compactJSON()
    }

    /// The call kinds as the API names them: a `quiet` call is an `update`.
    static func name(_ kind: CallKind) -> String { kind == .quiet ? "update" : kind.rawValue }

    private static func program(_ key: String?) -> JSONValue { key.map { .string(ProgramName.readable($0)) } ?? .null }

    private static func time(_ date: Date?) -> JSONValue { date.map { .string(ISOTime.format($0)) } ?? .null }

    private static func seconds(_ value: Double) -> JSONValue {
        NumberText.int(value, .toNearestOrAwayFromZero).map(JSONValue.int) ?? .null
    }
}
