import FoundationEssentials

/// The WebSocket side of ``HomeAssistantStandIn``: as much of HA's protocol as
/// cycletrack uses (HA's `websocket_api/auth.py`, `commands.py` and `messages.py`; the
/// client's side, with why it subscribes this way, is `HomeAssistantSession`):
///
///     → auth_required (ha_version)
///     ← auth (access_token)              → auth_ok, or auth_invalid and the connection closed
///     ← subscribe_entities (entity_ids)  → result, then event {"a": {id: {"s", "a"}}} with the
///                                          current states; per change {"c": {id: {"+": {"s", "a"},
///                                          "-": {"a": [names]}}}}, {"a": …} for an entity that
///                                          appears, {"r": [id]} for one removed
///     ← subscribe_events (event_type)    → result (the stand-in never fires one)
///     ← ping                             → pong
///     ← config/entity_registry/get_entries (entity_ids)
///                                        → result {id: entry or null} (``setRegistry``)
///     ← anything else                    → result, success false, unknown_command
///
/// A change event is sent by the thread that changed the state, inside the state's lock
/// and before `set`/`update`/`remove` returns; a subscription's initial states are sent
/// inside the same lock. So a client gets the initial states and then every change, in
/// order, none missed in between, and a benchmark knows when a change went out.
/// Messages are taken one frame each (cycletrack's client never fragments them).
extension HomeAssistantStandIn {
    /// A live `subscribe_entities`: where to send, under which id, for which entities.
    struct EntitySubscription {
        var peer: WebSocketStandInPeer
        var id: Int
        /// nil: every entity (no `entity_ids` given).
        var entityIDs: Set<String>?

        func follows(_ entity: String) -> Bool { entityIDs?.contains(entity) ?? true }
    }

    private struct ClientMessage: Decodable {
        var id: Int?
        var type: String
        var accessToken: String?
        var entityIDs: [String]?

        private enum CodingKeys: String, CodingKey {
            case id, type
            case accessToken = "access_token"
            case entityIDs = "entity_ids"
        }
    }

    /// Serves one upgraded connection until the client leaves, breaks the protocol, or
    /// the stand-in stops.
    static func serveWebSocket(_ peer: WebSocketStandInPeer, token: String, version: String, state: StandInLock<State>) {
        defer { state.withLock { $0.subscriptions.removeAll { $0.peer === peer } } }
        peer.sendText("{\"type\":\"auth_required\",\"ha_version\":\(StandInJSON.string(version))}")
        var authenticated = false
        while let frame = peer.receiveFrame(timeout: .infinity) {
            switch frame.opcode {
            case 0x1:
                break
            case 0x8:
                peer.sendClose(code: 1000)
                return
            case 0x9:
                peer.sendFrame(opcode: 0xA, payload: frame.payload)
                continue
            default:
                continue
            }
            // HA drops a connection that sends anything but JSON.
            guard let message = try? JSONDecoder().decode(ClientMessage.self, from: Data(frame.payload)) else { return }
            state.withLock { $0.webSocketMessages.append(message.type) }
            guard authenticated else {
                guard message.type == "auth", message.accessToken == token else {
                    peer.sendText(#"{"type":"auth_invalid","message":"Invalid access token or password"}"#)
                    return
                }
                authenticated = true
                peer.sendText("{\"type\":\"auth_ok\",\"ha_version\":\(StandInJSON.string(version))}")
                continue
            }
            let id = message.id ?? 0
            switch message.type {
            case "subscribe_entities":
                let subscription = EntitySubscription(peer: peer, id: id, entityIDs: message.entityIDs.map(Set.init))
                state.withLock { shared in
                    shared.subscriptions.append(subscription)
                    peer.sendText(result(id))
                    let present = shared.entities.filter { subscription.follows($0.key) }.sorted { $0.key < $1.key }
                    let added = present.map { "\(StandInJSON.string($0.key)):\(compressed($0.value))" }
                    peer.sendText(event(id, "{\"a\":{\(added.joined(separator: ","))}}"))
                }
            case "subscribe_events":
                peer.sendText(result(id))
            case "ping":
                peer.sendText("{\"id\":\(id),\"type\":\"pong\"}")
            case "config/entity_registry/get_entries":
                let entries = state.withLock { shared in
                    (message.entityIDs ?? []).map { "\(StandInJSON.string($0)):\(shared.registry[$0] ?? "null")" }
                }
                peer.sendText("{\"id\":\(id),\"type\":\"result\",\"success\":true,"
                    + "\"result\":{\(entries.joined(separator: ","))}}")
            default:
                peer.sendText("{\"id\":\(id),\"type\":\"result\",\"success\":false,"
                    + "\"error\":{\"code\":\"unknown_command\",\"message\":\"Unknown command.\"}}")
            }
        }
    }

    /// Sets `entity` to `new` (nil: removes it) and sends the change to every
    /// subscription that follows it. Called inside the state's lock.
    static func change(_ entity: String, to new: Entity?, in shared: inout State) {
        let old = shared.entities[entity]
        shared.entities[entity] = new
        guard old != new, shared.subscriptions.contains(where: { $0.follows(entity) }) else { return }
        let key = StandInJSON.string(entity)
        let diff: String
        switch (old, new) {
        case (_, nil):
            diff = "{\"r\":[\(key)]}"
        case (nil, let new?):
            diff = "{\"a\":{\(key):\(compressed(new))}}"
        case (let old?, let new?):
            diff = "{\"c\":{\(key):\(changes(from: old, to: new))}}"
        }
        for subscription in shared.subscriptions where subscription.follows(entity) {
            subscription.peer.sendText(event(subscription.id, diff))
        }
    }

    private static func result(_ id: Int) -> String {
        "{\"id\":\(id),\"type\":\"result\",\"success\":true,\"result\":null}"
    }

    private static func event(_ id: Int, _ body: String) -> String {
        "{\"id\":\(id),\"type\":\"event\",\"event\":\(body)}"
    }

    /// The attributes cycletrack reads, as JSON texts by name, those the entity has.
    private static func attributes(of entity: Entity) -> [(name: String, json: String)] {
        var list: [(name: String, json: String)] = []
        if let options = entity.options { list.append(("options", StandInJSON.strings(options))) }
        if let unit = entity.unit { list.append(("unit_of_measurement", StandInJSON.string(unit))) }
        if let deviceClass = entity.deviceClass { list.append(("device_class", StandInJSON.string(deviceClass))) }
        return list
    }

    private static func object(_ pairs: [(name: String, json: String)]) -> String {
        "{" + pairs.map { "\(StandInJSON.string($0.name)):\($0.json)" }.joined(separator: ",") + "}"
    }

    /// `{"s": state, "a": {attributes}}`, HA's compressed state.
    private static func compressed(_ entity: Entity) -> String {
        "{\"s\":\(StandInJSON.string(entity.state)),\"a\":\(object(attributes(of: entity)))}"
    }

    /// `{"+": {"s", "a": {changed}}, "-": {"a": [removed]}}`, the parts that apply.
    private static func changes(from old: Entity, to new: Entity) -> String {
        let before = Dictionary(attributes(of: old).map { ($0.name, $0.json) }, uniquingKeysWith: { $1 })
        let after = attributes(of: new)
        var plus: [String] = []
        if old.state != new.state { plus.append("\"s\":\(StandInJSON.string(new.state))") }
        let changed = after.filter { before[$0.name] != $0.json }
        if !changed.isEmpty { plus.append("\"a\":\(object(changed))") }
        let removed = before.keys.filter { name in !after.contains { $0.name == name } }.sorted()
        var parts: [String] = []
        if !plus.isEmpty { parts.append("\"+\":{\(plus.joined(separator: ","))}") }
        if !removed.isEmpty { parts.append("\"-\":{\"a\":\(StandInJSON.strings(removed))}") }
        return "{" + parts.joined(separator: ",") + "}"
    }
}
