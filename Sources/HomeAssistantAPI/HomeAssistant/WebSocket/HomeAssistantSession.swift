import CycleCore
import FoundationEssentials

/// Home Assistant's WebSocket protocol as a value: text messages and the passing of
/// time go in, what to send and what to deliver come out. No I/O, no clock: `now` is
/// the time since the connection was made, given by the caller with every event.
///
///     auth_required → auth → auth_ok | auth_invalid
///     subscribe_entities (+ subscribe_events ×3) → result … → subscribed
///       (the notification actions' may be refused to a user who isn't an administrator: fine)
///     supported_features (coalesce_messages) → result (an older HA may refuse: fine)
///     event … event, and every 30 s ping → pong within 10 s, else the connection is dead
///
/// ## Why coalesced messages
///
/// HA writes what one turn of its event loop queued for a connection as one WebSocket
/// message when the client asked for `coalesce_messages` (`websocket_api/http.py`, the
/// writer; `commands.py`, `supported_features`): a JSON array of the messages, or the one
/// message alone. An integration sets an appliance's entities in one callback (one turn),
/// so one message holds all of that change, delivered as one `.states` event that says
/// so (`endsBatch`): the runner need not wait for more. Without it, nothing tells the
/// last state of a change from one that more will follow, and the runner waits for HA
/// to be quiet.
///
/// ## Why `subscribe_entities`
///
/// Three commands can follow entity states. Read in `websocket_api/commands.py` and
/// `messages.py` of 2024.3.3 (the venv the tests run) and of current home-assistant/core;
/// `subscribe_entities` also exercised against the real 2024.3.3 (HomeAssistantWebSocketTests):
///
/// - `subscribe_entities` with `entity_ids` (used by HA's own frontend): HA reads the
///   current states and starts listening in the same step, with no await between ("or
///   we will introduce a race condition where some states are missed"), answers the
///   result, then one event `{"a": {id: {"s", "a", …}}}` with the current state of every
///   tracked entity that exists, then per change a compact diff
///   `{"c": {id: {"+": {"s": …, "a": {changed attributes}}, "-": {"a": [removed]}}}}`,
///   `{"a": …}` for an entity that appears and `{"r": [id]}` for one removed. Only the
///   tracked entities; no admin needed. Current HA added include/exclude filters; the
///   `entity_ids` option and the message shapes are unchanged.
/// - `render_template` with the states template the poller renders: HA re-renders the
///   whole template whenever a referenced entity changes and sends the whole text again;
///   a template error is dropped silently unless `report_errors` is set; nothing tells
///   an attribute change that matters from one that doesn't before rendering.
/// - `subscribe_trigger` with a state trigger: admin only (`require_admin`), no initial
///   states (a second read, with a gap, would be needed), and every change carries both
///   full state objects.
///
/// So `subscribe_entities`: initial states and changes from one subscription, without a
/// gap, smallest messages, and a removed entity is reported as such.
struct HomeAssistantSession {
    /// What the caller does next.
    enum Action: Equatable {
        /// Send this text message (the `auth` one carries the token: never log it).
        case send(String)
        /// Authenticated and every subscription confirmed: from here no change is missed.
        case subscribed(haVersion: String)
        case deliver(HomeAssistantWebSocket.Event)
        /// The connection is unusable; close it.
        case fail(HomeAssistantWebSocketError)
    }

    /// What the session subscribes to, and its timeouts.
    struct Settings {
        /// The `ws://` URL, for errors.
        var url: String
        var entityIDs: [String]
        var registries: [HomeAssistantWebSocket.Registry]
        /// Follow `mobile_app_notification_action` (a button tapped on a notification).
        var notificationActions = false
        var handshakeTimeout: Duration = .seconds(10)
        var pingInterval: Duration = .seconds(30)
        var pongTimeout: Duration = .seconds(10)
    }

    private enum Phase {
        case awaitingAuthRequired(deadline: Duration)
        case awaitingAuthResult(deadline: Duration)
        case subscribing(deadline: Duration)
        case live
        case failed
    }

    private enum Subscription {
        case entities
        case registry(HomeAssistantWebSocket.Registry)
        case notificationActions

        var command: String {
            switch self {
            case .entities: "subscribe_entities"
            case .registry(let registry): "subscribe_events \(registry.rawValue)"
            case .notificationActions: "subscribe_events \(HomeAssistantWebSocket.notificationActionEvent)"
            }
        }
    }

    let settings: Settings
    private let token: String
    private var phase: Phase
    private var haVersion = ""
    private var nextID = 1
    private var subscriptions: [Int: Subscription] = [:]
    private var unconfirmed: Set<Int> = []
    private var ping: (id: Int, deadline: Duration)?
    private var nextPingAt: Duration = .zero
    /// The last delivered state of each tracked entity present in HA.
    private var known: [String: EntityState] = [:]
    private var initialDelivered = false
    /// The `supported_features` command's id until HA answered it.
    private var featuresID: Int?
    /// HA coalesces its messages: each one ends a batch.
    private(set) var coalescing = false

    init(settings: Settings, token: String, now: Duration = .zero) {
        self.settings = settings
        self.token = token
        phase = .awaitingAuthRequired(deadline: now + settings.handshakeTimeout)
    }

    /// When ``tick(at:)`` must be called next at the latest.
    var nextDeadline: Duration? {
        switch phase {
        case .awaitingAuthRequired(let deadline), .awaitingAuthResult(let deadline), .subscribing(let deadline):
            return deadline
        case .live:
            return ping?.deadline ?? nextPingAt
        case .failed:
            return nil
        }
    }

    var isLive: Bool {
        if case .live = phase { return true }
        return false
    }

    // MARK: Events

    /// Time passed: a timeout, or a ping is due.
    mutating func tick(at now: Duration) -> [Action] {
        switch phase {
        case .awaitingAuthRequired(let deadline) where now >= deadline:
            return fail(.timeout(url: settings.url, waitingFor: "auth_required after the upgrade"))
        case .awaitingAuthResult(let deadline) where now >= deadline:
            return fail(.timeout(url: settings.url, waitingFor: "answer to auth (auth_ok or auth_invalid)"))
        case .subscribing(let deadline) where now >= deadline:
            return fail(.timeout(url: settings.url, waitingFor: "result of every subscription"))
        case .live:
            if let ping {
                guard now >= ping.deadline else { return [] }
                return fail(.noPong(url: settings.url, seconds: Self.seconds(settings.pongTimeout)))
            }
            guard now >= nextPingAt else { return [] }
            let id = takeID()
            ping = (id, now + settings.pongTimeout)
            nextPingAt = now + settings.pingInterval
            return [.send("{\"id\":\(id),\"type\":\"ping\"}")]
        default:
            return []
        }
    }

    /// A text message from HA. Coalesced messages (a JSON array) are taken one by one,
    /// and the states they change delivered together; where HA coalesces, the message
    /// ends a batch.
    mutating func receive(_ text: String, at now: Duration) -> [Action] {
        let actions = receiveMessages(text, at: now)
        guard coalescing else { return actions }
        return Self.batching(actions)
    }

    /// The `.states` deliveries of one WebSocket message as one, where the first was,
    /// ending the batch.
    static func batching(_ actions: [Action]) -> [Action] {
        var merged: [String: EntityState?] = [:]
        var at: Int?
        var rest: [Action] = []
        for action in actions {
            if case .deliver(.states(let states, _)) = action {
                merged.merge(states) { _, later in later }
                if at == nil { at = rest.count }
            } else {
                rest.append(action)
            }
        }
        guard let at else { return actions }
        rest.insert(.deliver(.states(merged, endsBatch: true)), at: at)
        return rest
    }

    private mutating func receiveMessages(_ text: String, at now: Duration) -> [Action] {
        if case .failed = phase { return [] }
        let bytes = Data(text.utf8)
        if bytes.first(where: { !Self.isSpace($0) }) == UInt8(ascii: "[") {
            guard let parts = try? JSONDecoder().decode([Ignored].self, from: bytes) else {
                return unexpected("a JSON object or array of objects", text)
            }
            // Each element again, as its own text: arrays are rare (only when asked for).
            guard let elements = Self.splitArray(text), elements.count == parts.count else {
                return unexpected("a JSON array of objects", text)
            }
            var actions: [Action] = []
            for element in elements {
                actions += receiveMessages(element, at: now)
                if case .failed = phase { break }
            }
            return actions
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: bytes) else {
            return unexpected("a JSON object with a \"type\"", text)
        }
        switch (phase, envelope.type) {
        case (.awaitingAuthRequired, "auth_required"):
            phase = .awaitingAuthResult(deadline: now + settings.handshakeTimeout)
            return [.send("{\"type\":\"auth\",\"access_token\":\(JSONValue.quoted(token))}")]
        case (.awaitingAuthResult, "auth_ok"):
            haVersion = envelope.ha_version ?? ""
            return subscribe(at: now)
        case (.awaitingAuthResult, "auth_invalid"):
            return fail(.authInvalid(url: settings.url, message: Self.redacting(token, in: envelope.message ?? "")))
        case (.awaitingAuthRequired, _), (.awaitingAuthResult, _):
            return unexpected(phaseExpectation, text)
        case (_, "result"):
            return result(envelope, at: now)
        case (_, "pong"):
            if let ping, envelope.id == ping.id { self.ping = nil }
            return []
        case (_, "event"):
            return event(envelope, text: bytes)
        default:
            // A message type this client doesn't know: newer HA may add some.
            return []
        }
    }

    // MARK: Steps

    private mutating func subscribe(at now: Duration) -> [Action] {
        var actions: [Action] = []
        if !settings.entityIDs.isEmpty {
            let id = takeID()
            subscriptions[id] = .entities
            let list = settings.entityIDs.map { JSONValue.quoted($0) }.joined(separator: ",")
            actions.append(.send("{\"id\":\(id),\"type\":\"subscribe_entities\",\"entity_ids\":[\(list)]}"))
        }
        for registry in settings.registries {
            let id = takeID()
            subscriptions[id] = .registry(registry)
            actions.append(.send("{\"id\":\(id),\"type\":\"subscribe_events\",\"event_type\":\(JSONValue.quoted(registry.rawValue))}"))
        }
        if settings.notificationActions {
            let id = takeID()
            subscriptions[id] = .notificationActions
            let event = JSONValue.quoted(HomeAssistantWebSocket.notificationActionEvent)
            actions.append(.send("{\"id\":\(id),\"type\":\"subscribe_events\",\"event_type\":\(event)}"))
        }
        unconfirmed = Set(subscriptions.keys)
        // Last: the subscriptions' first states come as they always did, every change
        // after it coalesced (HA takes a connection's commands in order). Not waited for.
        let features = takeID()
        featuresID = features
        actions.append(.send("{\"id\":\(features),\"type\":\"supported_features\",\"features\":{\"coalesce_messages\":1}}"))
        phase = .subscribing(deadline: now + settings.handshakeTimeout)
        if unconfirmed.isEmpty { actions += goLive(at: now) }
        return actions
    }

    private mutating func goLive(at now: Duration) -> [Action] {
        phase = .live
        nextPingAt = now + settings.pingInterval
        return [.subscribed(haVersion: haVersion)]
    }

    private mutating func result(_ envelope: Envelope, at now: Duration) -> [Action] {
        guard let id = envelope.id else { return unexpected("a result with an id", "a result without one") }
        if id == featuresID {
            // Refused (an HA without the command): messages come one by one, and the
            // runner waits for HA to be quiet instead.
            featuresID = nil
            coalescing = envelope.success == true
            return []
        }
        if envelope.success == false {
            if case .notificationActions = subscriptions[id] {
                return notificationActionsRefused(id, envelope, at: now)
            }
            if let subscription = subscriptions[id] {
                return fail(.commandFailed(url: settings.url, command: subscription.command,
                                           code: envelope.error?.code ?? "unknown",
                                           message: envelope.error?.message ?? ""))
            }
            if let ping, ping.id == id {
                return fail(.commandFailed(url: settings.url, command: "ping", code: envelope.error?.code ?? "unknown",
                                           message: envelope.error?.message ?? ""))
            }
            return []
        }
        guard unconfirmed.remove(id) != nil else { return [] }
        if case .subscribing = phase, unconfirmed.isEmpty {
            return goLive(at: now)
        }
        return []
    }

    /// HA allows `mobile_app_notification_action` only to an administrator's token: the
    /// rest works without it, and the caller is told once per connection.
    private mutating func notificationActionsRefused(_ id: Int, _ envelope: Envelope, at now: Duration) -> [Action] {
        subscriptions[id] = nil
        unconfirmed.remove(id)
        var actions: [Action] = []
        if case .subscribing = phase, unconfirmed.isEmpty { actions = goLive(at: now) }
        let reason = "\(envelope.error?.code ?? "unknown"): \(envelope.error?.message ?? "")"
        return actions + [.deliver(.notificationActionsRefused(reason: Self.redacting(token, in: reason)))]
    }

    private mutating func event(_ envelope: Envelope, text: Data) -> [Action] {
        guard let id = envelope.id, let subscription = subscriptions[id] else { return [] }
        switch subscription {
        case .notificationActions:
            // The same shape as a registry's event: {"event": {"data": {"action": …}}}.
            guard let action = (try? JSONDecoder().decode(RegistryEnvelope.self, from: text))?.event.data?.action else {
                return []
            }
            return [.deliver(.notificationAction(action))]
        case .registry(let registry):
            let event = try? JSONDecoder().decode(RegistryEnvelope.self, from: text)
            return [.deliver(.registryUpdated(registry, action: event?.event.data?.action))]
        case .entities:
            guard let diff = try? JSONDecoder().decode(EntitiesEnvelope.self, from: text).event else {
                return unexpected("a subscribe_entities event {\"a\"|\"c\"|\"r\": …}", String(decoding: text, as: UTF8.self))
            }
            return apply(diff)
        }
    }

    /// Applies one `subscribe_entities` event to ``known``; delivers what changed.
    private mutating func apply(_ diff: EntitiesDiff) -> [Action] {
        let tracked = Set(settings.entityIDs)
        var changes: [String: EntityState?] = [:]
        func set(_ id: String, _ state: EntityState?) {
            guard tracked.contains(id) else { return }
            if known[id] != state || !initialDelivered {
                changes.updateValue(state, forKey: id)
            }
            known[id] = state
        }
        for (id, added) in diff.a ?? [:] {
            set(id, EntityState(state: added.s, unit: added.a?["unit_of_measurement"]?.string,
                                deviceClass: added.a?["device_class"]?.string, eventType: added.a?["event_type"]?.string))
        }
        for (id, change) in diff.c ?? [:] {
            guard var state = known[id] ?? change.plus?.s.map({ EntityState(state: $0) }) else { continue }
            if let s = change.plus?.s { state.value = StateValue(s) }
            if let attributes = change.plus?.a {
                if let unit = attributes["unit_of_measurement"] { state.unit = unit.string }
                if let deviceClass = attributes["device_class"] { state.deviceClass = deviceClass.string }
                if let eventType = attributes["event_type"] { state.eventType = eventType.string }
            }
            for removed in change.minus?.a ?? [] {
                if removed == "unit_of_measurement" { state.unit = nil }
                if removed == "device_class" { state.deviceClass = nil }
                if removed == "event_type" { state.eventType = nil }
            }
            set(id, state)
        }
        for id in diff.r ?? [] {
            set(id, nil)
        }
        if !initialDelivered {
            // The first event lists the entities that exist; the others are absent.
            for id in settings.entityIDs where changes.index(forKey: id) == nil {
                changes.updateValue(nil, forKey: id)
            }
            initialDelivered = true
        }
        return changes.isEmpty ? [] : [.deliver(.states(changes))]
    }

    private mutating func fail(_ error: HomeAssistantWebSocketError) -> [Action] {
        phase = .failed
        return [.fail(error)]
    }

    private mutating func unexpected(_ expected: String, _ found: String) -> [Action] {
        fail(.unexpectedMessage(url: settings.url, expected: expected, found: Self.excerpt(found, hiding: token)))
    }

    private var phaseExpectation: String {
        switch phase {
        case .awaitingAuthRequired: "auth_required"
        case .awaitingAuthResult: "auth_ok or auth_invalid"
        default: "a result, event or pong"
        }
    }

    private mutating func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}
