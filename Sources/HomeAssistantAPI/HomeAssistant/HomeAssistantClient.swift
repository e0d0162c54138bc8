import CycleCore
import FoundationEssentials

/// Home Assistant's REST API, as cycletrack uses it, over one ``HTTPClient``.
///
/// Every request carries `Authorization: Bearer <token>`; the token appears nowhere
/// else: not in errors, descriptions, or this value's reflection.
public struct HomeAssistantClient: Sendable, CustomStringConvertible, CustomReflectable {
    /// The base URL without a trailing slash, e.g. `http://homeassistant.local:8123`
    /// or `http://supervisor/core`.
    public let baseURL: String
    let token: String
    let http: HTTPClient

    /// A client for the HA instance at `baseURL`, authenticating with `token`.
    public init(baseURL: String, token: String, http: HTTPClient) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.token = token
        self.http = http
    }

    /// Opens HA's WebSocket API with this client's token and TLS settings and subscribes
    /// to `entityIDs` (and the registries' events, and with `notificationActions` the
    /// buttons tapped on notifications); returns once HA confirmed it all.
    public func subscribe(
        entityIDs: [String], registries: [HomeAssistantWebSocket.Registry] = HomeAssistantWebSocket.Registry.allCases,
        notificationActions: Bool = false, configuration: HomeAssistantWebSocket.Configuration? = nil
    ) async throws(HomeAssistantWebSocketError) -> HomeAssistantWebSocket {
        try await HomeAssistantWebSocket.connect(
            baseURL: baseURL, token: token, entityIDs: entityIDs, registries: registries, notificationActions: notificationActions,
            configuration: configuration ?? HomeAssistantWebSocket.Configuration(http: http.configuration))
    }

    public var description: String { "HomeAssistantClient(\(HTTPError.redacted(baseURL)))" }
    public var customMirror: Mirror { Mirror(self, children: ["baseURL": HTTPError.redacted(baseURL)]) }

    /// `GET /api/config`: HA's version, location name, time zone, loaded components.
    /// A good first call: it confirms the address and the token.
    public func config() async throws(HomeAssistantError) -> HAConfig {
        let path = "/api/config"
        let response = try await request(.get, path)
        return try decode(HAConfig.self, from: response, path: path,
                          expected: "a JSON object with version and location_name")
    }

    /// Whether `GET /api/services` lists `domain.service` (e.g. `supernotify.notify`).
    public func hasService(domain: String, service: String) async throws(HomeAssistantError) -> Bool {
        let path = "/api/services"
        let response = try await request(.get, path)
        let domains = try decode([ServiceDomain].self, from: response, path: path,
                                 expected: "a JSON list of {domain, services}")
        return domains.contains { $0.domain == domain && $0.services.keys.contains(service) }
    }

    /// `POST /api/template`: HA renders `template` and answers the text. A template
    /// error is `.badRequest` with HA's message.
    public func renderTemplate(_ template: String) async throws(HomeAssistantError) -> String {
        let path = "/api/template"
        let body = Array("{\"template\":\(JSONValue.quoted(template))}".utf8)
        let response = try await request(.post, path, body: body)
        guard let text = response.text else {
            throw .malformedResponse(what: "UTF-8 text", path: path)
        }
        return text
    }

    /// The state, unit and device class of each of `entityIDs`, in one request.
    /// Every id is a key of the result; its value is nil when HA has no such entity.
    /// Throws `.invalidIdentifier` for an id that isn't `domain.object_id`.
    public func states(of entityIDs: [String]) async throws(HomeAssistantError) -> [String: EntityState?] {
        var unique: [String] = []
        for id in entityIDs where !unique.contains(id) { unique.append(id) }
        guard !unique.isEmpty else { return [:] }
        let text = try await renderTemplate(try HomeAssistantTemplates.states(of: unique))
        let path = "/api/template"
        let expected = "a JSON object of entity id to {\"s\", \"u\", \"dc\"} or null (the states template)"
        let records: [String: StateRecord?]
        do {
            records = try JSONDecoder().decode([String: StateRecord?].self, from: Data(text.utf8))
        } catch {
            throw .malformedResponse(what: expected, path: path)
        }
        var result: [String: EntityState?] = [:]
        for id in unique {
            guard let record = records[id] else {
                throw .malformedResponse(what: "\(expected), with a key for \(id)", path: path)
            }
            // updateValue, not a subscript: assigning nil through the subscript would drop the key.
            result.updateValue(record.map { EntityState(state: $0.s, unit: $0.u, deviceClass: $0.dc, eventType: $0.ev) }, forKey: id)
        }
        return result
    }

    /// `POST /api/services/<domain>/<service>` with `body` (JSON). Never throws: the
    /// outcome carries the status, the error if any, and the latency, for the record.
    public func callService(domain: String, service: String, body: String) async -> ServiceCallOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Double {
            let duration = clock.now - start
            return Double(duration.components.seconds) * 1000
                + Double(duration.components.attoseconds) / 1_000_000_000_000_000
        }
        for (what, name) in [("service domain", domain), ("service name", service)]
        where !HomeAssistantTemplates.isValidName(name) {
            return ServiceCallOutcome(status: nil, error: .invalidIdentifier(what: what, value: name),
                                      latencyMs: elapsed())
        }
        let path = "/api/services/\(domain)/\(service)"
        do {
            let response = try await http.send(httpRequest(.post, path, body: Array(body.utf8)))
            let error = HomeAssistantError.forStatus(response.status, path: path, body: response.body, token: token)
            return ServiceCallOutcome(status: response.status, error: error, latencyMs: elapsed())
        } catch {
            return ServiceCallOutcome(status: nil, error: .unreachable(error), latencyMs: elapsed())
        }
    }

    /// `POST /api/states/<entityID>`: sets an entity's state and attributes (HA keeps
    /// it until it restarts).
    public func setState(entityID: String, _ state: PostedState) async throws(HomeAssistantError) {
        guard HomeAssistantTemplates.isValidEntityID(entityID) else {
            throw .invalidIdentifier(what: "entity id", value: entityID)
        }
        _ = try await request(.post, "/api/states/\(entityID)", body: Array(state.body.utf8))
    }

    /// `DELETE /api/states/<entityID>`: removes a state set over the API. False when HA
    /// had no such state (404: gone already, e.g. forgotten at a restart).
    @discardableResult
    public func removeState(entityID: String) async throws(HomeAssistantError) -> Bool {
        guard HomeAssistantTemplates.isValidEntityID(entityID) else {
            throw .invalidIdentifier(what: "entity id", value: entityID)
        }
        do {
            _ = try await request(.delete, "/api/states/\(entityID)")
        } catch .notFound {
            return false
        }
        return true
    }

    /// `POST /api/events/<type>`: fires the event on HA's bus.
    public func fireEvent(_ event: HomeAssistantEvent) async throws(HomeAssistantError) {
        guard HomeAssistantTemplates.isValidName(event.type) else {
            throw .invalidIdentifier(what: "event type", value: event.type)
        }
        _ = try await request(.post, "/api/events/\(event.type)", body: Array(event.data.compactJSON().utf8))
    }

    /// Every Home Connect device HA knows, with roles recognised from the entities'
    /// attributes; devices without an operation state are left out (see
    /// ``discoverDevices()`` for them and the reason).
    public func discover() async throws(HomeAssistantError) -> [DiscoveredDevice] {
        try await discoverDevices().devices
    }

    /// Like ``discover()``, also returning the skipped devices with why, for `cycletrack check`.
    /// One template request lists the devices and their entities' states; then one WebSocket
    /// command reads what the integrations declare about those entities from HA's entity
    /// registry (``HomeAssistantRegistryReader``). When the registry can't be read (a proxy
    /// without WebSocket), every role is found by the fallback rules and the result says why
    /// (``DiscoveryResult/registryProblem``).
    public func discoverDevices(readRegistry: Bool = true) async throws(HomeAssistantError) -> DiscoveryResult {
        let text = try await renderTemplate(HomeAssistantTemplates.discovery)
        var records: [DiscoveryRecord]
        do {
            records = try ApplianceRoleRecognizer.records(discoveryJSON: text)
        } catch {
            throw .malformedResponse(what: "a JSON list of devices (the discovery template): \(error.detail)",
                                     path: "/api/template")
        }
        var problem: String?
        let ids = records.flatMap { $0.entities.map(\.id) }
        if readRegistry, !ids.isEmpty {
            do {
                let entries = try await HomeAssistantRegistryReader.entries(
                    baseURL: baseURL, token: token, entityIDs: ids,
                    configuration: HomeAssistantWebSocket.Configuration(http: http.configuration))
                records = ApplianceRoleRecognizer.merging(entries, into: records)
            } catch {
                problem = error.description
            }
        }
        var result = ApplianceRoleRecognizer.recognize(records)
        result.registryProblem = problem
        return result
    }

    // MARK: Plumbing

    private struct ServiceDomain: Decodable {
        var domain: String
        var services: [String: Ignored]
    }

    /// Any JSON value, skipped.
    private struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// One entry of the states template's answer (short keys keep the answer small).
    private struct StateRecord: Decodable {
        var s: String
        var u: String?
        var dc: String?
        /// An event entity's `event_type`; absent from stand-ins that don't give it.
        var ev: String?
    }

    private func httpRequest(_ method: HTTPRequest.Method, _ path: String, body: [UInt8]? = nil) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [(name: "Authorization", value: "Bearer \(token)")]
        if body != nil {
            headers.append((name: "Content-Type", value: "application/json"))
        }
        return HTTPRequest(method: method, url: baseURL + path, headers: headers, body: body)
    }

    /// Sends, and turns a transport failure or a non-2xx status into an error.
    func request(_ method: HTTPRequest.Method, _ path: String,
                         body: [UInt8]? = nil) async throws(HomeAssistantError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await http.send(httpRequest(method, path, body: body))
        } catch {
            throw .unreachable(error)
        }
        if let error = HomeAssistantError.forStatus(response.status, path: path, body: response.body, token: token) {
            throw error
        }
        return response
    }

    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, path: String,
                                      expected: String) throws(HomeAssistantError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(response.body))
        } catch {
            throw .malformedResponse(what: expected, path: path)
        }
    }
}
