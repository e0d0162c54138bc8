import FoundationEssentials

/// A fake Home Assistant REST API on ``HTTPStandIn``: the endpoints cycletrack uses,
/// with settable entity states and devices, and a record of every service call.
///
/// Answers, all requiring `Authorization: Bearer <token>` (401 otherwise):
/// `GET /api/`, `GET /api/config`, `GET /api/services` (with `supernotify.notify`
/// unless turned off), `GET /api/states/<id>`, `POST /api/template` (cycletrack's
/// states and discovery templates, recognised by their text, answered from the set
/// entities and devices exactly as HA would render them; any other template is a
/// 400 like HA's template error), and `POST /api/services/<domain>/<service>`
/// (recorded with its arrival time; 200 `[]`, or the next scripted status).
/// Everything is behind a lock: tests and the benchmark may set states while
/// cycletrack polls.
///
/// Made with `webSocketAccept`, it also answers `GET /api/websocket` on the same port
/// and speaks enough of HA's WebSocket API for `cycletrack run` in events mode: auth,
/// `subscribe_entities` (the current states, then a change event for every
/// ``set(entity:state:unit:deviceClass:options:)``, ``update(entity:state:)`` and
/// ``remove(entity:)`` of a followed entity, sent before the call returns),
/// `subscribe_events` and `ping` (see `HomeAssistantStandInWebSocket.swift`).
public final class HomeAssistantStandIn: Sendable {
    /// One entity's state and the attributes cycletrack reads.
    public struct Entity: Sendable, Equatable {
        public var state: String
        public var unit: String?
        public var deviceClass: String?
        public var options: [String]?

        public init(state: String, unit: String? = nil, deviceClass: String? = nil, options: [String]? = nil) {
            self.state = state
            self.unit = unit
            self.deviceClass = deviceClass
            self.options = options
        }
    }

    /// A Home Connect device as discovery sees it: registry data and its entity ids.
    public struct Device: Sendable, Equatable {
        public var id: String
        public var name: String
        public var nameByUser: String?
        public var manufacturer: String?
        public var model: String?
        public var entityIDs: [String]
        /// The integration the template names (`miele`, …); nil: none, as older answers.
        public var domain: String?

        public init(id: String, name: String, nameByUser: String? = nil, manufacturer: String? = "BSH",
                    model: String? = nil, entityIDs: [String], domain: String? = nil) {
            self.id = id
            self.domain = domain
            self.name = name
            self.nameByUser = nameByUser
            self.manufacturer = manufacturer
            self.model = model
            self.entityIDs = entityIDs
        }
    }

    /// A service call as it arrived.
    public struct ServiceCall: Sendable {
        public var domain: String
        public var service: String
        /// The request body, exactly as sent.
        public var body: String
        public var receivedAt: Date
        /// The status the stand-in answered with.
        public var status: Int
    }

    struct State {
        var entities: [String: Entity] = [:]
        var devices: [Device] = []
        /// Entity registry entries (`config/entity_registry/get_entries`), as JSON objects.
        var registry: [String: String] = [:]
        var services: [String: [String]] = [
            "homeassistant": ["turn_on", "turn_off", "reload_core_config"],
            "notify": ["notify", "persistent_notification"],
            "supernotify": ["notify"],
        ]
        var scriptedStatuses: [Int] = []
        var calls: [ServiceCall] = []
        var requests: [String] = []
        var overrides: [String: HTTPStandIn.Reply] = [:]
        var posts: [Post] = []
        /// Live `subscribe_entities` subscriptions of WebSocket clients.
        var subscriptions: [EntitySubscription] = []
        /// The type of every WebSocket message received, in order.
        var webSocketMessages: [String] = []
    }

    /// A state set or an event fired through the REST API (`POST /api/states/...`,
    /// `POST /api/events/...`).
    public struct Post: Sendable, Equatable {
        /// The path after `/api/`: `states/sensor.x` or `events/some_event`.
        public var path: String
        public var body: String
    }

    /// The token every request must carry.
    public let token: String
    /// The version `/api/config` reports.
    public let version: String
    private let server: HTTPStandIn
    let state = StandInLock(State())

    /// Starts a fake Home Assistant on 127.0.0.1 at an ephemeral port. With
    /// `webSocketAccept` (key → `Sec-WebSocket-Accept`, normally the client's
    /// `WebSocketHandshake.acceptValue(for:)`: the stand-in has no SHA-1 of its own) it
    /// also serves HA's WebSocket API at `/api/websocket`; without, that path is a 401
    /// like any other request without the token, and the client falls back to polling.
    public init(token: String = "stand-in-token", version: String = "2024.3.3",
                webSocketAccept: (@Sendable (String) -> String)? = nil) throws(StandInError) {
        self.token = token
        self.version = version
        let state = self.state
        server = try HTTPStandIn { request in
            HomeAssistantStandIn.answer(request, token: token, version: version, webSocketAccept: webSocketAccept,
                                        state: state)
        }
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { server.baseURL }
    /// Connections accepted so far (keep-alive means one per client, normally).
    public var acceptedConnections: Int { server.acceptedConnections }

    /// Stops the server (also done on deinit).
    public func stop() { server.stop() }

    /// Creates or replaces an entity's state.
    public func set(entity: String, state value: String, unit: String? = nil, deviceClass: String? = nil,
                    options: [String]? = nil) {
        state.withLock {
            Self.change(entity, to: Entity(state: value, unit: unit, deviceClass: deviceClass, options: options), in: &$0)
        }
    }

    /// Changes only an existing entity's state string (attributes kept); creates it otherwise.
    public func update(entity: String, state value: String) {
        state.withLock {
            var entry = $0.entities[entity] ?? Entity(state: value)
            entry.state = value
            Self.change(entity, to: entry, in: &$0)
        }
    }

    /// Removes an entity: templates then see it as missing.
    public func remove(entity: String) {
        state.withLock { Self.change(entity, to: nil, in: &$0) }
    }

    /// The devices the discovery template lists, in this order.
    public func setDevices(_ devices: [Device]) {
        state.withLock { $0.devices = devices }
    }

    /// What HA's entity registry says of `entity`, for `config/entity_registry/get_entries`
    /// (nil values are JSON nulls; an entity never given one has no entry).
    public func setRegistry(entity: String, platform: String, translationKey: String? = nil, uniqueID: String,
                            originalDeviceClass: String? = nil) {
        func json(_ text: String?) -> String { StandInJSON.string(text) }
        let entry = "{\"entity_id\":\(json(entity)),\"platform\":\(json(platform)),"
            + "\"translation_key\":\(json(translationKey)),\"unique_id\":\(json(uniqueID)),"
            + "\"original_device_class\":\(json(originalDeviceClass))}"
        state.withLock { $0.registry[entity] = entry }
    }

    /// Registers or removes a service in `GET /api/services` and for calls.
    public func setService(domain: String, service: String, available: Bool) {
        state.withLock {
            var names = $0.services[domain, default: []].filter { $0 != service }
            if available { names.append(service) }
            $0.services[domain] = names.isEmpty ? nil : names
        }
    }

    /// Statuses for the next service calls, one per call, in order; 200 afterwards.
    /// A non-2xx call is still recorded.
    public func scriptServiceStatuses(_ statuses: [Int]) {
        state.withLock { $0.scriptedStatuses = statuses }
    }

    /// Answers every `METHOD path` request (e.g. `"GET /api/config"`) with `reply`
    /// instead of the normal answer, before the token check; `nil` removes the override.
    public func override(_ methodAndPath: String, with reply: HTTPStandIn.Reply?) {
        state.withLock { $0.overrides[methodAndPath] = reply }
    }

    /// Every service call received, in arrival order.
    public var serviceCalls: [ServiceCall] { state.withLock { $0.calls } }

    /// The `supernotify.notify` calls received, in arrival order.
    public var notifyCalls: [ServiceCall] {
        serviceCalls.filter { $0.domain == "supernotify" && $0.service == "notify" }
    }

    /// Every request as `METHOD path`, in arrival order (never a header).
    public var requests: [String] { state.withLock { $0.requests } }

    /// Every state set and event fired, in arrival order.
    public var posts: [Post] { state.withLock { $0.posts } }

    /// The current entities.
    public var entities: [String: Entity] { state.withLock { $0.entities } }

    /// The `type` of every WebSocket message received (`auth`, `subscribe_entities`,
    /// `ping`, …), in arrival order; never the token.
    public var webSocketMessages: [String] { state.withLock { $0.webSocketMessages } }

    /// How many `subscribe_entities` subscriptions are live now.
    public var entitySubscriptions: Int { state.withLock { $0.subscriptions.count } }
}
