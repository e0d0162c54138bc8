import CycleService
import Foundation
@testable import HomeAssistantAPI
import HTTPStandIn
import Synchronization
import Testing

/// The `subscribe_entities` exchange recorded from the real Home Assistant 2026.11
/// (`Fixtures/subscribe-entities-2026.11.0.json`, made by the end-to-end
/// `SubscribeEntitiesRecordingTests` with `CYCLETRACK_RECORD_WS=1`, never by hand),
/// replayed: the session must say exactly what it said to the real HA, and believe at
/// every checkpoint what HA's REST API showed then. Pings and pongs depend on timing and
/// are left out of the replay (the end-to-end test checks their shape).
@Suite struct RecordedSubscribeEntitiesTests {
    enum Step {
        case fromHomeAssistant(String)
        case fromCycletrack(String)
        case checkpoint(String, [String: String?])
    }

    struct Recording {
        var haVersion: String
        var entityIDs: [String]
        var token: String
        var steps: [Step]
    }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/subscribe-entities-2026.11.0.json")

    static func load() throws -> Recording {
        let tree = try JSONDecoder().decode(JSONTree.self, from: Data(contentsOf: fixture))
        guard case .object(let root) = tree, case .object(let header)? = root["recording"],
              case .string(let version)? = header["ha_version"], case .string(let token)? = header["token"],
              case .array(let ids)? = header["entity_ids"], case .array(let exchange)? = root["exchange"] else {
            throw RecordingError("\(fixture.path): not a recorded exchange")
        }
        let steps = try exchange.map { item throws -> Step in
            guard case .object(let step) = item else { throw RecordingError("a step is not an object") }
            switch (step["from"], step["text"], step["checkpoint"], step["states"]) {
            case (.string("ha"), .string(let text), _, _): return .fromHomeAssistant(text)
            case (.string("cycletrack"), .string(let text), _, _): return .fromCycletrack(text)
            case (_, _, .string(let name), .object(let states)?):
                return .checkpoint(name, states.mapValues { if case .string(let state) = $0 { state } else { nil } })
            default: throw RecordingError("unknown step \(step.keys.sorted())")
            }
        }
        return Recording(haVersion: version, entityIDs: ids.compactMap { if case .string(let id) = $0 { id } else { nil } },
                         token: token, steps: steps)
    }

    struct RecordingError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func isPingOrPong(_ text: String) -> Bool {
        text.contains(#""type":"ping""#) || text.contains(#""type":"pong""#)
    }

    static func matches(_ believed: [String: EntityState?], _ shown: [String: String?]) -> Bool {
        shown.allSatisfy { id, state in believed[id].map { $0?.value.text == state } ?? false }
    }

    @Test func theRecordingIsFromHomeAssistant2026AndHasNoToken() throws {
        let recording = try Self.load()
        #expect(recording.haVersion == "2026.11.0")
        #expect(recording.token == "<token>")
        let text = try String(contentsOf: Self.fixture, encoding: .utf8)
        #expect(!text.contains("eyJ"), "a JWT (HA token) in the fixture")
        #expect(recording.steps.contains { if case .checkpoint = $0 { true } else { false } })
    }

    @Test func theSessionSaysWhatItSaidAndBelievesWhatHomeAssistantShowedAtEveryCheckpoint() throws {
        let recording = try Self.load()
        var session = HomeAssistantSession(
            settings: .init(url: "ws://127.0.0.1:8123/api/websocket", entityIDs: recording.entityIDs, registries: [.entity, .device]),
            token: recording.token, now: .zero)
        var sent: [String] = []
        var said: [String] = []
        var believed: [String: EntityState?] = [:]
        var subscribed: String?
        var checkpoints = 0
        for step in recording.steps {
            switch step {
            case .fromHomeAssistant(let text) where !Self.isPingOrPong(text):
                for action in session.receive(text, at: .seconds(1)) {
                    switch action {
                    case .send(let text): sent.append(text)
                    case .subscribed(let version): subscribed = version
                    case .deliver(.states(let states, _)): believed.merge(states) { _, new in new }
                    case .deliver: break
                    case .fail(let error): Issue.record("the session failed on \(text): \(error)")
                    }
                }
            case .fromCycletrack(let text) where !Self.isPingOrPong(text):
                said.append(text)
            case .checkpoint(let name, let shown):
                checkpoints += 1
                #expect(Self.matches(believed, shown), "at \"\(name)\": HA showed \(shown), the session believes \(believed)")
            default:
                break
            }
        }
        #expect(sent == said)
        #expect(subscribed == recording.haVersion)
        #expect(checkpoints >= 5)
    }

    /// The real HA wrote each step's entities in one turn (the home_connect stand-in's
    /// `set_state`, as an integration does) and, asked to coalesce, sent them as one
    /// message: each step after the subscription is one delivery and one batch's end, so
    /// the runner decides at once and makes one observation of it.
    @Test func everyStepHomeAssistantWroteTogetherIsOneBatch() throws {
        let recording = try Self.load()
        var session = HomeAssistantSession(
            settings: .init(url: "ws://127.0.0.1:8123/api/websocket", entityIDs: recording.entityIDs, registries: [.entity, .device]),
            token: recording.token, now: .zero)
        var delivered: [HomeAssistantWebSocket.Event] = []
        var batchesByStep: [String: [HomeAssistantWebSocket.Event]] = [:]
        for step in recording.steps {
            switch step {
            case .fromHomeAssistant(let text) where !Self.isPingOrPong(text):
                for case .deliver(let event) in session.receive(text, at: .seconds(1)) { delivered.append(event) }
            case .checkpoint(let name, _):
                batchesByStep[name] = delivered.map { if case .states(_, let ends) = $0 { .states([:], endsBatch: ends) } else { $0 } }
                delivered = []
            default:
                break
            }
        }
        #expect(session.coalescing, "HA \(recording.haVersion) accepted coalesce_messages")
        let steps = batchesByStep.filter { $0.key != "subscribed, the initial states" }
        #expect(steps.count >= 8)
        for (name, events) in steps.sorted(by: { $0.key < $1.key }) {
            #expect(events == [.states([:], endsBatch: true)], "\(name): \(events)")
        }
    }

    @Test func overLoopbackTheClientFollowsTheRecordedHomeAssistantToTheEnd() async throws {
        let recording = try Self.load()
        let mismatches = Mutex<[String]>([])
        let standIn = try WebSocketStandIn(acceptValue: WebSocketHandshake.acceptValue(for:)) { peer in
            for step in recording.steps {
                switch step {
                case .fromHomeAssistant(let text) where !Self.isPingOrPong(text):
                    _ = peer.sendText(text)
                case .fromCycletrack(let expected) where !Self.isPingOrPong(expected):
                    var received = peer.receiveText()
                    while let text = received, Self.isPingOrPong(text) { received = peer.receiveText() }
                    if received != expected { mismatches.withLock { $0.append("expected \(expected), got \(received ?? "nothing")") } }
                default:
                    break
                }
            }
            peer.waitUntilClientLeaves()
        }
        let socket = try await HomeAssistantWebSocket.connect(baseURL: standIn.baseURL, token: recording.token,
                                                              entityIDs: recording.entityIDs, registries: [.entity, .device])
        #expect(socket.haVersion == recording.haVersion)
        let last = recording.steps.reversed().lazy.compactMap { if case .checkpoint(_, let shown) = $0 { shown } else { nil } }.first
        let shown = try #require(last)
        var believed: [String: EntityState?] = [:]
        for try await event in socket.events {
            if case .states(let states, _) = event { believed.merge(states) { _, new in new } }
            if Self.matches(believed, shown) { break }
        }
        socket.close()
        #expect(Self.matches(believed, shown), "the last checkpoint: HA showed \(shown), the client believes \(believed)")
        #expect(mismatches.withLock { $0 } == [])
    }
}
