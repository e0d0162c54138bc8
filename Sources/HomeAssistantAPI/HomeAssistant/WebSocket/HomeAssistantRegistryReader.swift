import CycleCore
import Dispatch
import FoundationEssentials

/// Reads what the integrations declare about entities from HA's entity registry: one
/// WebSocket connection, `auth`, one `config/entity_registry/get_entries` command for the
/// given entity ids, closed again. That command exists from HA 2023.x on (2024.3.3 and
/// 2026.11 answer it alike), needs no admin token and returns each entry's
/// `extended_dict`: `platform`, `translation_key`, `unique_id`, `original_device_class`.
/// It is used by discovery in both update modes (`events` and `poll`): discovery is one
/// moment, not a subscription. The token goes only into the `auth` message.
public enum HomeAssistantRegistryReader {
    /// The registry entry per entity id (entities HA's registry doesn't have are left out).
    public static func entries(
        baseURL: String, token: String, entityIDs: [String],
        configuration: HomeAssistantWebSocket.Configuration = HomeAssistantWebSocket.Configuration()
    ) async throws(HomeAssistantWebSocketError) -> [String: DiscoveryRecord.RegistryEntry] {
        guard let endpoint = WebSocketEndpoint(baseURL: baseURL) else { throw .invalidBaseURL(baseURL) }
        for id in entityIDs where !HomeAssistantTemplates.isValidEntityID(id) { throw .invalidEntityID(id) }
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<[String: DiscoveryRecord.RegistryEntry], HomeAssistantWebSocketError>, Never>) in
            DispatchQueue(label: "cycletrack.registry-read").async {
                done.resume(returning: Result { () throws(HomeAssistantWebSocketError) in
                    try read(endpoint: endpoint, token: token, entityIDs: entityIDs, configuration: configuration)
                })
            }
        }
        return try result.get()
    }

    private struct Auth: Encodable {
        var type = "auth"
        var access_token: String
    }

    private struct Command: Encodable {
        var id = 1
        var type = "config/entity_registry/get_entries"
        var entity_ids: [String]
    }

    private struct Answer: Decodable {
        var type: String
        var id: Int?
        var success: Bool?
        var error: HomeAssistantSession.ErrorBody?
        var result: [String: DiscoveryRecord.RegistryEntry?]?
    }

    /// Blocking: connect, authenticate, ask, read the answer, close.
    private static func read(endpoint: WebSocketEndpoint, token: String, entityIDs: [String],
                             configuration: HomeAssistantWebSocket.Configuration) throws(HomeAssistantWebSocketError)
        -> [String: DiscoveryRecord.RegistryEntry] {
        let url = endpoint.url
        let connection: WebSocketConnection
        do {
            connection = try WebSocketConnection(endpoint: endpoint, configuration: configuration.http,
                                                 maxMessageBytes: configuration.maxMessageBytes,
                                                 handshakeTimeout: configuration.handshakeTimeout)
        } catch {
            throw .connection(error)
        }
        defer { connection.close(code: 1000, reason: "", timeout: 1) }
        let wait = Duration.milliseconds(Int((max(configuration.handshakeTimeout, 0) * 1000).rounded()))
        func next(_ waitingFor: String) throws(HomeAssistantWebSocketError) -> Answer {
            let deadline = ContinuousClock.now + wait
            while true {
                let message: WebSocketMessage?
                do { message = try connection.receive(until: deadline) } catch { throw .connection(error) }
                switch message {
                case .text(let text):
                    guard let answer = try? JSONDecoder().decode(Answer.self, from: Data(text.utf8)) else {
                        throw .unexpectedMessage(url: url, expected: waitingFor, found: "a message that isn't one")
                    }
                    return answer
                case nil:
                    throw .timeout(url: url, waitingFor: waitingFor)
                default:
                    if ContinuousClock.now >= deadline { throw .timeout(url: url, waitingFor: waitingFor) }
                }
            }
        }
        func send<T: Encodable>(_ value: T) throws(HomeAssistantWebSocketError) {
            let text = String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
            do { try connection.send(text: text) } catch { throw .connection(error) }
        }
        guard try next("auth_required").type == "auth_required" else {
            throw .unexpectedMessage(url: url, expected: "auth_required", found: "another message")
        }
        try send(Auth(access_token: token))
        let auth = try next("auth_ok or auth_invalid")
        guard auth.type == "auth_ok" else {
            throw .authInvalid(url: url, message: auth.type == "auth_invalid" ? "the token was refused" : auth.type)
        }
        try send(Command(entity_ids: entityIDs))
        while true {
            let answer = try next("the registry entries")
            guard answer.type == "result", answer.id == 1 else { continue }
            guard answer.success == true, let entries = answer.result else {
                throw .commandFailed(url: url, command: "config/entity_registry/get_entries",
                                     code: answer.error?.code ?? "", message: answer.error?.message ?? "")
            }
            return entries.compactMapValues { $0 }
        }
    }
}
