import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
import LocalTime

/// The demo's stand-in for Home Assistant: answers polls from the simulated appliances
/// at the accelerated clock's time.
struct DemoHousehold: ApplianceStateSource {
    let appliances: [SimulatedAppliance]
    let clock: AcceleratedClock

    func read(_ entities: [String]) async throws(SourceFailure) -> [String: EntityState?] {
        let seconds = clock.now().timeIntervalSince(clock.origin)
        var shown: [String: EntityState] = [:]
        for appliance in appliances {
            shown.merge(appliance.states(at: seconds, origin: clock.origin)) { first, _ in first }
        }
        shown[Self.person] = EntityState(state: isAway(at: seconds) ? "not_home" : "home")
        var readings: [String: EntityState?] = [:]
        for entity in entities { readings[entity] = shown[entity] }
        return readings
    }

    /// The one person of the demo: out from half an hour before the dishwasher ends until a
    /// quarter of an hour after, so its end notification waits for her (docs/PUSHES.md, "Presence").
    static let person = "person.alice"

    var delivery: DeliverySettings {
        var delivery = DeliverySettings()
        delivery.people = [PersonSettings(entity: Self.person)]
        return delivery
    }

    private func isAway(at seconds: Double) -> Bool {
        guard let dishwasher = appliances.first else { return false }
        let end = dishwasher.over - dishwasher.doorOpensAfter - 60
        return seconds >= end - 1800 && seconds < end + 900
    }

    var tracked: [TrackedAppliance] {
        appliances.map { appliance in
            var settings = ApplianceSettings(id: appliance.id, name: appliance.name)
            settings.dashboard = "/lovelace/appliances"
            return TrackedAppliance(settings: settings, entities: appliance.entities, origin: "demo")
        }
    }
}

/// The demo's stand-in for Supernotify: prints each call as a person would read it and
/// answers 200, as HA does.
struct DemoPrinter: CallSink {
    let clock: AcceleratedClock
    let timeZone: LocalTimeZone
    let write: @Sendable (String) -> Void

    func notify(_ request: CallRequest) async -> ServiceCallOutcome {
        write(Self.line(request, at: clock.now(), timeZone: timeZone))
        return ServiceCallOutcome(status: 200, error: nil, latencyMs: 0)
    }

    /// "08:02", local time, as the history table shows it.
    static func clockTime(_ date: Date, timeZone: LocalTimeZone) -> String {
        String(TimeText.local(date, timeZone: timeZone).suffix(5))
    }

    /// "08:02  dishwasher  start     Dishwasher started: Eco 50°C"
    static func line(_ request: CallRequest, at time: Date, timeZone: LocalTimeZone) -> String {
        let fields = (try? JSONDecoder().decode(JSONTree.self, from: Data(request.body.utf8))) ?? .null
        guard case .object(let body) = fields else { return request.body }
        var text = ""
        if case .string(let title)? = body["title"] { text = title }
        if case .string(let message)? = body["message"], !message.contains(text) { text += text.isEmpty ? message : " · \(message)" } else if case .string(let message)? = body["message"] { text = message }
        var details: [String] = []
        if case .object(let extra)? = body["extra_data"] {
            if case .number(let progress)? = extra["progress"] { details.append("\(NumberText.plain(progress))%") }
            if case .number(let when)? = extra["when"] {
                details.append("ends \(clockTime(Date(timeIntervalSince1970: when), timeZone: timeZone))")
            }
            if case .bool(true)? = extra["silent"] { details.append("silent") }
        }
        if case .array(let target)? = body["target"] {
            details.append("to " + target.compactMap { if case .string(let name) = $0 { name } else { nil } }.joined(separator: ", "))
        }
        let clock = clockTime(time, timeZone: timeZone)
        let kind = request.kind.rawValue.padded(to: 8)
        let who = request.applianceID.padded(to: 11)
        return "\(clock)  \(who)\(kind)\(text)" + (details.isEmpty ? "" : "  [\(details.joined(separator: ", "))]")
    }
}
