import Foundation
@testable import HomeAssistantAPI

extension HomeAssistantProcess {
    /// One command over HA's WebSocket API (`config/entity_registry/list`,
    /// `config/device_registry/list`, ...) on a connection of its own, through cycletrack's
    /// own WebSocket client: auth with the test's token, the command, its `result`.
    /// Fails with HA's error when `success` is false.
    func webSocketCommand(_ type: String) async throws -> Any {
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let base = url.absoluteString
        // The connection blocks in poll(2): off the cooperative pool.
        let result: Data = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.blockingCommand(base: base, token: token, type: type) })
            }
        }
        return try JSONSerialization.jsonObject(with: result, options: [.fragmentsAllowed])
    }

    /// The command's `result` as JSON.
    private static func blockingCommand(base: String, token: String, type: String) throws -> Data {
        guard let endpoint = WebSocketEndpoint(baseURL: base) else { throw HomeAssistantTestError("not an HA URL: \(base)") }
        let connection = try WebSocketConnection(endpoint: endpoint, configuration: .init(connectTimeout: 5),
                                                 maxMessageBytes: 1 << 24, handshakeTimeout: 10)
        defer { connection.close() }
        let deadline = ContinuousClock.now + .seconds(30)
        func next() throws -> [String: Any] {
            guard case .text(let text) = try connection.receive(until: deadline),
                  let message = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw HomeAssistantTestError("\(type): no message from HA's WebSocket in time")
            }
            return message
        }
        guard try next()["type"] as? String == "auth_required" else { throw HomeAssistantTestError("\(type): no auth_required") }
        let auth = try JSONSerialization.data(withJSONObject: ["type": "auth", "access_token": token])
        try connection.send(text: String(decoding: auth, as: UTF8.self))
        guard try next()["type"] as? String == "auth_ok" else { throw HomeAssistantTestError("\(type): the token was refused") }
        let command = try JSONSerialization.data(withJSONObject: ["id": 1, "type": type] as [String: Any])
        try connection.send(text: String(decoding: command, as: UTF8.self))
        while true {
            let message = try next()
            guard message["id"] as? Int == 1, message["type"] as? String == "result" else { continue }
            guard message["success"] as? Bool == true else { throw HomeAssistantTestError("\(type): \(message["error"] ?? "failed")") }
            return try JSONSerialization.data(withJSONObject: message["result"] ?? NSNull(), options: [.fragmentsAllowed])
        }
    }
}
