import Foundation
@testable import HomeAssistantAPI

/// Drives cycletrack's own ``HomeAssistantSession`` over a real WebSocket connection to
/// a real Home Assistant and writes down every text message both ways, in order, with
/// checkpoints: what HA's REST API says the tracked entities are after each step. This is
/// how `Tests/CycleServiceTests/Fixtures/subscribe-entities-<version>.json` is made (never
/// by hand); `RecordedExchange` reads it back.
///
/// Scrubbed as it is recorded: the token (the `auth` message says `<token>`), context
/// and user ids (ULIDs and 32-digit hex ids become fixed placeholders). Blocking: each
/// `pump` reads the socket until its condition holds or its timeout passes.
final class SubscribeEntitiesRecorder {
    static let tokenPlaceholder = "<token>"

    let entityIDs: [String]
    private let token: String
    private let connection: WebSocketConnection
    private var session: HomeAssistantSession
    private let start = ContinuousClock.now
    private(set) var steps: [[String: Any]] = []
    /// Every state the session delivered, merged: what cycletrack believes.
    private(set) var believed: [String: EntityState?] = [:]
    private(set) var haVersion: String?

    init(baseURL: URL, token: String, entityIDs: [String], registries: [HomeAssistantWebSocket.Registry],
         pingInterval: Duration) throws {
        guard let endpoint = WebSocketEndpoint(baseURL: baseURL.absoluteString) else {
            throw HomeAssistantTestError("not an HA URL: \(baseURL)")
        }
        self.entityIDs = entityIDs
        self.token = token
        connection = try WebSocketConnection(endpoint: endpoint, configuration: .init(connectTimeout: 5),
                                             maxMessageBytes: 1 << 22, handshakeTimeout: 10)
        session = HomeAssistantSession(
            settings: .init(url: endpoint.url, entityIDs: entityIDs, registries: registries,
                            handshakeTimeout: .seconds(30), pingInterval: pingInterval, pongTimeout: .seconds(30)),
            token: token, now: .zero)
    }

    deinit { connection.close() }

    /// Reads and answers HA's messages until `done` holds (checked after each message),
    /// or fails after `timeout`.
    func pump(_ what: String, timeout: Duration = .seconds(30), until done: () -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while !done() {
            guard ContinuousClock.now < deadline else { throw HomeAssistantTestError("timed out waiting for \(what)") }
            let wake = min(deadline, start + (session.nextDeadline ?? .seconds(3600)))
            var actions: [HomeAssistantSession.Action] = []
            if case .text(let text) = try connection.receive(until: wake) {
                record("ha", text)
                actions = session.receive(text, at: ContinuousClock.now - start)
            }
            actions += session.tick(at: ContinuousClock.now - start)
            for action in actions {
                switch action {
                case .send(let text):
                    record("cycletrack", text)
                    try connection.send(text: text)
                case .subscribed(let version):
                    haVersion = version
                case .deliver(.states(let states, _)):
                    believed.merge(states) { _, new in new }
                case .deliver:
                    break
                case .fail(let error):
                    throw HomeAssistantTestError("the session failed: \(error)")
                }
            }
        }
    }

    /// A checkpoint: after `step`, HA (asked over REST) shows `states`; the replay
    /// checks that the session believes the same.
    func checkpoint(_ step: String, states: [String: String?]) {
        steps.append(["checkpoint": step, "states": states.mapValues { $0 ?? NSNull() as Any }])
    }

    /// The fixture: JSON, keys sorted, one step per line.
    func fixture() throws -> String {
        let header: [String: Any] = [
            "ha_version": haVersion ?? "", "entity_ids": entityIDs, "token": Self.tokenPlaceholder,
            "captured_by": "Tests/EndToEndTests/SubscribeEntitiesRecordingTests.swift with CYCLETRACK_RECORD_WS=1",
        ]
        let encode = { (value: Any) throws -> String in
            String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]),
                   as: UTF8.self)
        }
        let lines = try steps.map { "    " + (try encode($0)) }
        return "{\"recording\": \(try encode(header)),\n  \"exchange\": [\n" + lines.joined(separator: ",\n") + "\n  ]}\n"
    }

    private func record(_ from: String, _ text: String) {
        steps.append(["from": from, "text": Self.scrub(text, token: token)])
    }

    /// The text without the token and with fixed context/user ids.
    static func scrub(_ text: String, token: String) -> String {
        var scrubbed = text.replacingOccurrences(of: token, with: tokenPlaceholder)
        for (pattern, placeholder) in [(#"\b[0-9A-HJKMNP-TV-Z]{26}\b"#, "01JCONTEXT0000000000000000"),
                                       (#"\b[0-9a-f]{32}\b"#, String(repeating: "0", count: 32))] {
            scrubbed = scrubbed.replacingOccurrences(of: pattern, with: placeholder, options: .regularExpression)
        }
        return scrubbed
    }
}
