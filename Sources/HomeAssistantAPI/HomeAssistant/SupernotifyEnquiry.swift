import CycleCore
import Dispatch
import FoundationEssentials

/// Asks Supernotify for its configured deliveries over Home Assistant's WebSocket API
/// (`call_service` with `return_response`, HA 2023.7 and later): the way that works on
/// an HA whose REST API cannot return an action's response yet (before 2024.8).
///
/// One short connection: authenticate, one call, close. Blocking work on a queue of
/// its own, never on a Swift concurrency thread. The token goes only into `auth`.
enum SupernotifyEnquiry {
    /// Why the enquiry gave no answer, one line without the token.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    static func deliveries(baseURL: String, token: String, configuration: HTTPClient.Configuration,
                           timeout: Double = 10) async throws(Failure) -> [String]? {
        let queue = DispatchQueue(label: "cycletrack.supernotify-enquiry")
        let result: Result<[String]?, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(Failure) in
                    try run(baseURL: baseURL, token: token, configuration: configuration, timeout: timeout)
                })
            }
        }
        return try result.get()
    }

    private struct Message: Decodable {
        var id: Int?
        var type: String
        var success: Bool?
        var result: Outcome?
        var error: Problem?
        var message: String?

        struct Outcome: Decodable {
            var response: Response?
        }

        struct Response: Decodable {
            var delivery: [String: Anything]?
        }

        struct Problem: Decodable {
            var code: String?
            var message: String?
        }
    }

    private struct Anything: Decodable {
        init(from decoder: Decoder) throws {}
    }

    private static func run(baseURL: String, token: String, configuration: HTTPClient.Configuration,
                            timeout: Double) throws(Failure) -> [String]? {
        guard let endpoint = WebSocketEndpoint(baseURL: baseURL) else {
            throw Failure(description: "no WebSocket address for \(HTTPError.redacted(baseURL))")
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        let connection: WebSocketConnection
        do {
            connection = try WebSocketConnection(endpoint: endpoint, configuration: configuration, maxMessageBytes: 4 << 20,
                                                 handshakeTimeout: timeout)
        } catch {
            throw Failure(description: error.description)
        }
        defer { connection.close() }
        func next() throws(Failure) -> Message {
            let received: WebSocketMessage?
            do { received = try connection.receive(until: deadline) } catch { throw Failure(description: error.description) }
            guard let received else { throw Failure(description: "Home Assistant did not answer within \(NumberText.plain(timeout)) s") }
            guard case .text(let text) = received,
                  let message = try? JSONDecoder().decode(Message.self, from: Data(text.utf8)) else {
                return Message(type: "other")
            }
            return message
        }
        func send(_ text: String) throws(Failure) {
            do { try connection.send(text: text) } catch { throw Failure(description: error.description) }
        }
        var message = try next()
        guard message.type == "auth_required" else { throw Failure(description: "expected auth_required, found \(message.type)") }
        try send("{\"type\": \"auth\", \"access_token\": \(JSONValue.quoted(token))}")
        message = try next()
        guard message.type == "auth_ok" else { throw Failure(description: "Home Assistant refused the token (\(message.type))") }
        try send("""
            {"id": 1, "type": "call_service", "domain": "supernotify", "service": "enquire_configuration", \
            "service_data": {}, "return_response": true}
            """)
        repeat { message = try next() } while !(message.type == "result" && message.id == 1)
        guard message.success == true else {
            let why = [message.error?.code, message.error?.message].compactMap { $0 }.joined(separator: ": ")
            throw Failure(description: "supernotify.enquire_configuration failed: \(why)")
        }
        return message.result?.response?.delivery.map { $0.keys.sorted() }
    }
}
