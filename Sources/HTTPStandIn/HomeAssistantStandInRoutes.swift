import FoundationEssentials

/// The routes of ``HomeAssistantStandIn``: what each endpoint answers.
extension HomeAssistantStandIn {
    static func answer(_ request: HTTPStandIn.Request, token: String, version: String,
                       webSocketAccept: (@Sendable (String) -> String)?, state: StandInLock<State>) -> HTTPStandIn.Reply {
        let route = "\(request.method) \(request.path)"
        let override = state.withLock { shared -> HTTPStandIn.Reply? in
            shared.requests.append(route)
            return shared.overrides[route]
        }
        if let override { return override }
        // HA authenticates a WebSocket inside it (the `auth` message), not on the upgrade.
        if request.method == "GET", request.path == "/api/websocket", let webSocketAccept {
            guard request.headers["upgrade"]?.lowercased() == "websocket",
                  let key = request.headers["sec-websocket-key"] else {
                return .respond(.text("400: Bad Request: expected a WebSocket upgrade", status: 400))
            }
            return .webSocket(accept: webSocketAccept(key)) { peer in
                serveWebSocket(peer, token: token, version: version, state: state)
            }
        }
        guard request.headers["authorization"] == "Bearer \(token)" else {
            return .respond(.text("401: Unauthorized", status: 401))
        }
        switch (request.method, request.path) {
        case ("GET", "/api/"):
            return .respond(.json(#"{"message": "API running."}"#))
        case ("GET", "/api/config"):
            return .respond(.json(configJSON(version: version, state: state)))
        case ("GET", "/api/services"):
            return .respond(.json(servicesJSON(state: state)))
        case ("GET", let path) where path.hasPrefix("/api/states/"):
            return stateAnswer(entityID: String(path.dropFirst("/api/states/".count)), state: state)
        case ("POST", "/api/template"):
            return templateAnswer(request.body, state: state)
        case ("POST", let path) where path.hasPrefix("/api/services/"):
            return serviceAnswer(request, state: state)
        case ("POST", let path) where path.hasPrefix("/api/states/") || path.hasPrefix("/api/events/"):
            let body = String(decoding: request.body, as: UTF8.self)
            let posted = path.hasPrefix("/api/states/") ? try? JSONDecoder().decode(PostedState.self, from: Data(request.body)) : nil
            state.withLock {
                $0.posts.append(Post(path: String(path.dropFirst("/api/".count)), body: body))
                // Like HA, a state set over the API is an entity until HA restarts.
                if let posted { $0.entities[String(path.dropFirst("/api/states/".count))] = Entity(state: posted.state) }
            }
            return .respond(.json(path.hasPrefix("/api/events/") ? #"{"message": "Event fired."}"# : body, status: 200))
        case ("DELETE", let path) where path.hasPrefix("/api/states/"):
            // Like HA (`APIEntityStateView.delete`): 200 when removed, 404 when it had no such state.
            let entityID = String(path.dropFirst("/api/states/".count))
            let removed = state.withLock { $0.entities.removeValue(forKey: entityID) != nil }
            return .respond(.json(removed ? #"{"message": "Entity removed."}"# : #"{"message": "Entity not found."}"#,
                                  status: removed ? 200 : 404))
        default:
            return .respond(.text("404: Not Found", status: 404))
        }
    }

    private static func configJSON(version: String, state: StandInLock<State>) -> String {
        let components = state.withLock { Array($0.services.keys).sorted() } + ["api", "home_connect", "template"]
        return """
            {"latitude": 52.52, "longitude": 13.405, "elevation": 34, \
            "unit_system": {"length": "km", "mass": "g", "temperature": "°C", "volume": "L"}, \
            "location_name": "Home", "time_zone": "Europe/Berlin", \
            "components": \(StandInJSON.strings(components)), "version": \(StandInJSON.string(version)), \
            "state": "RUNNING", "safe_mode": false, "recovery_mode": false}
            """
    }

    private static func servicesJSON(state: StandInLock<State>) -> String {
        let services = state.withLock { $0.services }
        let domains = services.keys.sorted().map { domain in
            let entries = (services[domain] ?? []).map { name in
                "\(StandInJSON.string(name)): {\"name\": \(StandInJSON.string(name)), \"description\": \"\", \"fields\": {}}"
            }
            return "{\"domain\": \(StandInJSON.string(domain)), \"services\": {\(entries.joined(separator: ", "))}}"
        }
        return "[" + domains.joined(separator: ", ") + "]"
    }

    private static func stateAnswer(entityID: String, state: StandInLock<State>) -> HTTPStandIn.Reply {
        guard let entity = state.withLock({ $0.entities[entityID] }) else {
            return .respond(.json(#"{"message": "Entity not found."}"#, status: 404))
        }
        var attributes: [String] = []
        if let options = entity.options { attributes.append("\"options\": \(StandInJSON.strings(options))") }
        if let unit = entity.unit { attributes.append("\"unit_of_measurement\": \(StandInJSON.string(unit))") }
        if let deviceClass = entity.deviceClass { attributes.append("\"device_class\": \(StandInJSON.string(deviceClass))") }
        return .respond(.json("""
            {"entity_id": \(StandInJSON.string(entityID)), "state": \(StandInJSON.string(entity.state)), \
            "attributes": {\(attributes.joined(separator: ", "))}}
            """))
    }

    private struct TemplateBody: Decodable {
        var template: String
    }

    /// Renders cycletrack's two templates the way HA would; refuses any other.
    private static func templateAnswer(_ body: [UInt8], state: StandInLock<State>) -> HTTPStandIn.Reply {
        guard let template = try? JSONDecoder().decode(TemplateBody.self, from: Data(body)).template else {
            return .respond(.json(#"{"message": "Data should be valid JSON."}"#, status: 400))
        }
        if template.contains("integration_entities(") && template.contains("'home_connect'") {
            return .respond(.text(discoveryJSON(state: state)))
        }
        if template.contains("states[") {
            let ids = StandInJSON.quotedEntityIDs(in: template)
            return .respond(.text(statesJSON(ids, state: state)))
        }
        return .respond(.json(
            #"{"message": "Error rendering template: the stand-in renders only cycletrack's templates"}"#,
            status: 400))
    }

    /// `{"<id>": {"s": state, "u": unit, "dc": device_class} | null, ...}`.
    static func statesJSON(_ ids: [String], state: StandInLock<State>) -> String {
        let entities = state.withLock { $0.entities }
        let pairs = ids.map { id in
            guard let entity = entities[id] else { return "\(StandInJSON.string(id)): null" }
            return "\(StandInJSON.string(id)): {\"s\": \(StandInJSON.string(entity.state)), "
                + "\"u\": \(StandInJSON.string(entity.unit)), \"dc\": \(StandInJSON.string(entity.deviceClass))}"
        }
        return "{" + pairs.joined(separator: ", ") + "}"
    }

    /// `[{"id", "name", "manufacturer", "model", "entities": [{"id", "state", "options", "unit", "dc"}]}]`.
    static func discoveryJSON(state: StandInLock<State>) -> String {
        let (devices, entities) = state.withLock { ($0.devices, $0.entities) }
        let rendered = devices.map { device in
            let members = device.entityIDs.map { id in
                let entity = entities[id]
                return "{\"id\": \(StandInJSON.string(id)), "
                    + "\"state\": \(StandInJSON.string(entity?.state ?? "unknown")), "
                    + "\"options\": \(StandInJSON.strings(entity?.options)), "
                    + "\"unit\": \(StandInJSON.string(entity?.unit)), "
                    + "\"dc\": \(StandInJSON.string(entity?.deviceClass))}"
            }
            return "{\"id\": \(StandInJSON.string(device.id)), "
                + (device.domain.map { "\"domain\": \(StandInJSON.string($0)), " } ?? "")
                + "\"name\": \(StandInJSON.string(device.nameByUser ?? device.name)), "
                + "\"manufacturer\": \(StandInJSON.string(device.manufacturer)), "
                + "\"model\": \(StandInJSON.string(device.model)), "
                + "\"entities\": [\(members.joined(separator: ", "))]}"
        }
        return "[" + rendered.joined(separator: ", ") + "]"
    }

    private static func serviceAnswer(_ request: HTTPStandIn.Request, state: StandInLock<State>) -> HTTPStandIn.Reply {
        let parts = request.path.dropFirst("/api/services/".count).split(separator: "/").map(String.init)
        guard parts.count == 2 else { return .respond(.text("404: Not Found", status: 404)) }
        let (domain, service) = (parts[0], parts[1])
        guard isJSONObject(request.body) else {
            return .respond(.json(#"{"message": "Data should be valid JSON."}"#, status: 400))
        }
        let status = state.withLock { shared -> Int in
            let known = shared.services[domain]?.contains(service) ?? false
            var status = known ? 200 : 400
            if !shared.scriptedStatuses.isEmpty { status = shared.scriptedStatuses.removeFirst() }
            shared.calls.append(ServiceCall(domain: domain, service: service, body: request.bodyText,
                                            receivedAt: Date(), status: status))
            return status
        }
        switch status {
        case 200..<300: return .respond(.json("[]", status: status))
        case 400: return .respond(.json(#"{"message": "Service \#(domain).\#(service) not found."}"#, status: 400))
        case 401: return .respond(.text("401: Unauthorized", status: 401))
        default: return .respond(.text("\(status): stand-in scripted status", status: status))
        }
    }

    /// Whether `body` is a JSON object (an empty body counts as `{}`, as in HA).
    private static func isJSONObject(_ body: [UInt8]) -> Bool {
        if body.isEmpty { return true }
        return (try? JSONDecoder().decode([String: StandInAnyJSON].self, from: Data(body))) != nil
    }
}

/// Any JSON value, decoded only to check that a body is well-formed.
private struct StandInAnyJSON: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { return }
        if (try? container.decode(Bool.self)) != nil { return }
        if (try? container.decode(Double.self)) != nil { return }
        if (try? container.decode(String.self)) != nil { return }
        if (try? container.decode([StandInAnyJSON].self)) != nil { return }
        _ = try container.decode([String: StandInAnyJSON].self)
    }
}

/// The state of a `POST /api/states/...` body, a string or a number.
private struct PostedState: Decodable {
    var state: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if let text = try? container.decode(String.self, forKey: .state) {
            state = text
        } else {
            state = String(try container.decode(Double.self, forKey: .state))
        }
    }

    private enum Key: String, CodingKey { case state }
}
