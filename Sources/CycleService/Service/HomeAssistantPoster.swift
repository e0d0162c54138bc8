import CycleCore
import CycleHistory
import FoundationEssentials
import HomeAssistantAPI

/// Shows cycletrack inside Home Assistant over its REST API (docs/REFERENCE.md, "In Home
/// Assistant"): the I/O half of what the runner shows; the snapshots themselves are
/// `ApplianceSnapshots`' and which states go or are removed is `RestStates`'.
///
/// - `sensor.cycletrack_<id>` per appliance (from its snapshot) and
///   `sensor.cycletrack_pushes_today` (calls today, with the limit and what is left),
///   posted when they changed and all again after HA restarted, until an integration
///   announces itself (`integrationAnnounced`): then the states posted are removed
///   and none is posted again, across restarts (the store's `integration` row);
/// - events `cycletrack_cycle_started`, `cycletrack_cycle_ended`, `cycletrack_push_waiting`,
///   `cycletrack_push_held_back` and `cycletrack_anomaly`, for automations, with or without an
///   integration.
///   Events HA could not take wait (at most `maxWaitingEvents`, oldest dropped first) and
///   go out once it answers again.
///
/// Not `Sendable`: the runner actor owns it; its async methods run on that actor.
final class HomeAssistantPoster {
    private let surface: any HomeAssistantSurface
    private let store: HistoryStore
    private let log: Log
    private(set) var rest: RestStates
    /// At most this many events wait for HA.
    let maxWaitingEvents = 100
    private var waitingEvents: [HomeAssistantEvent] = []
    private var saidRefused = false
    /// How many times `publish` went to HA with states to show, for the tests: a poll or a
    /// burst publishes once.
    private(set) var publications = 0

    /// `appliances`: the ids followed, whose states an earlier run may have posted.
    init(surface: any HomeAssistantSurface, store: HistoryStore, log: Log, appliances: [String]) throws(StoreError) {
        self.surface = surface
        self.store = store
        self.log = log
        rest = RestStates(try store.integrationRecord(), candidates: Self.ownEntities(appliances))
    }

    /// Whether the service's states are HA's to show now (no integration announced).
    var posts: Bool { rest.posts }

    /// The entity of the day's calls: their count, the limit, what is left.
    static let pushesTodayEntityID = "sensor.cycletrack_pushes_today"

    /// The entity id for an appliance: HA's ids are lowercase letters, digits and `_`.
    static func entityID(for applianceID: String) -> String {
        let cleaned = applianceID.lowercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "_"
        }
        return "sensor.cycletrack_" + String(cleaned)
    }

    /// Every state the service posts for these appliances.
    static func ownEntities(_ appliances: [String]) -> Set<String> {
        Set(appliances.map(entityID(for:))).union([pushesTodayEntityID])
    }

    /// HA restarted (or came back): every state goes again at the next `publish`.
    func forgetPosted() { rest.homeAssistantForgot() }

    /// Turns one event's steps into HA events.
    func take(_ steps: [Household.Step], household: Household) {
        for step in steps {
            for event in PostedEvents.of(step, settings: household.tracker(step.applianceID)?.settings) {
                waitingEvents.append(event)
            }
        }
        if waitingEvents.count > maxWaitingEvents {
            waitingEvents.removeFirst(waitingEvents.count - maxWaitingEvents)
        }
    }

    /// Fires the waiting events, then posts every state that changed since it was last
    /// posted, or removes those left once an integration announced itself.
    nonisolated(nonsending) func publish(_ household: Household, snapshots: ApplianceSnapshots, at now: Date) async {
        guard await fireWaiting() else { return }
        var desired: [(entity: String, state: PostedState)] = []
        if rest.posts {
            publications += 1
            desired = snapshots.all(household).map { (Self.entityID(for: $0.id), Self.postedState($0)) }
            desired.append((Self.pushesTodayEntityID, Self.pushesToday(household, at: now)))
        }
        for action in rest.actions(for: desired) {
            guard await perform(action) else { return }
        }
        saidRefused = false
    }

    /// An integration announced itself: nothing is posted from now on, and every state the
    /// service may have posted (`appliances`' and those posted this run) is removed from HA.
    /// The states HA did not let go, empty when none is left (then so recorded).
    nonisolated(nonsending) func integrationAnnounced(appliances: [String]) async -> [String] {
        rest.integrationAnnounced(candidates: Self.ownEntities(appliances))
        for action in rest.actions(for: []) { _ = await perform(action) }
        if case .removing(let left) = rest.mode { return left.sorted() }
        return []
    }

    /// The integration was removed: every state goes again at the next `publish`.
    func integrationRemoved() { rest.integrationRemoved() }

    /// Performs one action and tells `rest` HA's answer; false when HA refused (logged once).
    private nonisolated(nonsending) func perform(_ action: RestStates.Action) async -> Bool {
        switch action {
        case .post(let entity, let state):
            guard await surface.setState(entityID: entity, state) else {
                refused("state of \(entity)")
                return false
            }
            rest.posted(entity, state)
        case .remove(let entity):
            let outcome = await surface.removeState(entityID: entity)
            if case .failed(let why) = outcome {
                refused("removal of \(entity): \(why)", action: "tried again at the next update")
                return false
            }
            log.info("ha_state_removed", ["entity": entity, "found": outcome == .removed ? "yes" : "no (gone already)"])
            if rest.removed(entity) { recordWithdrawn() }
        }
        return true
    }

    private func recordWithdrawn() {
        do {
            try store.recordRestStatesRemoved()
        } catch {
            log.error("store_write_failed", ["error": "\(error)", "effect": "the removal is tried again (found gone) after a restart"])
        }
    }

    private nonisolated(nonsending) func fireWaiting() async -> Bool {
        var pending = waitingEvents
        waitingEvents = []
        while let event = pending.first {
            guard await surface.fireEvent(event) else {
                waitingEvents = pending + waitingEvents
                refused("event \(event.type)")
                return false
            }
            pending.removeFirst()
        }
        return true
    }

    private static func pushesToday(_ household: Household, at now: Date) -> PostedState {
        let calls = household.callsCounted(on: now)
        return PostedState(state: .int(calls), attributes: JSONObject([
            ("limit", .int(household.dailyLimit)), ("left", .int(max(0, household.dailyLimit - calls))),
            ("unit_of_measurement", .string("calls")), ("state_class", .string("total")),
            ("friendly_name", .string("cycletrack pushes today")), ("icon", .string("mdi:cellphone-message")),
        ]))
    }

    /// `sensor.cycletrack_<id>`'s state and attributes, from the appliance's snapshot.
    static func postedState(_ snapshot: ApplianceSnapshot) -> PostedState {
        let previous = snapshot.lastCycle
        let attributes: [(String, JSONValue)] = [
            ("program", snapshot.program.map { .string(ProgramName.readable($0)) } ?? .null),
            ("program_key", snapshot.program.map(JSONValue.string) ?? .null),
            ("progress", snapshot.progress.map(JSONValue.int) ?? .null),
            ("finish_time", snapshot.finish.map { .string(ISOTime.format($0)) } ?? .null),
            ("started_at", snapshot.startedAt.map { .string(ISOTime.format($0)) } ?? .null),
            ("pushes", snapshot.pushes.map(JSONValue.int) ?? .null),
            ("last_outcome", previous.map { .string($0.outcome.rawValue) } ?? .null),
            ("last_program", previous?.program.map { .string(ProgramName.readable($0)) } ?? .null),
            ("last_duration_seconds", PostedEvents.seconds(previous?.duration)),
            ("last_energy_kwh", previous?.energy.map(JSONValue.double) ?? .null),
            ("appliance_id", .string(snapshot.id)),
            ("friendly_name", .string("\(snapshot.name) cycle")),
            ("icon", .string(snapshot.icon)),
        ]
        return PostedState(state: .string(snapshot.state), attributes: JSONObject(attributes))
    }

    /// Logs the first refusal since HA last took everything.
    private func refused(_ what: String, action: String = "kept, and posted again once HA answers") {
        guard !saidRefused else { return }
        saidRefused = true
        log.warning("ha_publish_failed", ["what": what, "action": action])
    }
}
