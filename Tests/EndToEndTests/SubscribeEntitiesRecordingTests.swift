import CycleService
import Foundation
@testable import HomeAssistantAPI
import Testing

/// cycletrack's WebSocket session against the real Home Assistant 2026.11, message by
/// message, compared with the exchange recorded from it in
/// `Tests/CycleServiceTests/Fixtures/subscribe-entities-2026.11.0.json` (which the loopback
/// tests replay, `RecordedSubscribeEntitiesTests`). A change in what HA says, or in what
/// the session makes of it, fails here. To record the fixture again (after an HA
/// upgrade, say), run this test with `CYCLETRACK_RECORD_WS=1`:
///
///     CYCLETRACK_RECORD_WS=1 swift test --skip-build --filter SubscribeEntitiesRecordingTests
@Suite(
    "subscribe_entities recorded from the real Home Assistant",
    .serialized,
    .timeLimit(.minutes(5)),
    .realHomeAssistant(only: HomeAssistantProcess.currentVersion)
)
struct SubscribeEntitiesRecordingTests {
    static let probe = "sensor.cycletrack_ws_probe"
    static let tracked = [
        "sensor.dishwasher_operation_state", "sensor.dishwasher_program_progress", "sensor.dishwasher_program_finish_time",
        "sensor.dishwasher_door", "select.dishwasher_active_program", probe,
    ]
    /// What the test does to the appliance, step by step, through the home_connect stand-in.
    static var steps: [(String, [String: Any])] { [
        ("a program starts", ["operation_state": "run", "progress": 0, "finish_time": "2026-11-02T11:37:00+00:00",
                              "program": "dishcare_dishwasher_program_eco_50"]),
        ("progress 40", ["progress": 40]),
        ("the finish time moves", ["finish_time": "2026-11-02T11:48:00+00:00"]),
        ("a pause", ["operation_state": "pause"]),
        ("the appliance drops out", ["operation_state": "unavailable", "progress": "unavailable"]),
        ("it is back and finishes", ["operation_state": "finished", "progress": 100]),
        ("the door opens", ["door": "open"]),
        ("ready again", ["operation_state": "ready", "program": NSNull()]),
    ] }

    static func fixtureURL(_ version: String) -> URL {
        HomeAssistantProcess.repositoryRoot.appendingPathComponent("Tests/CycleServiceTests/Fixtures/subscribe-entities-\(version).json")
    }

    @Test("What HA 2026.11 says over subscribe_entities has the recorded shape, and the session follows every step")
    func recordedShape() async throws {
        let ha = try await HomeAssistantProcess.started()
        let token = try String(contentsOf: ha.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let recorder = try SubscribeEntitiesRecorder(baseURL: ha.url, token: token, entityIDs: Self.tracked,
                                                     registries: [.entity, .device], pingInterval: .seconds(2))
        // The handshake at once: HA closes a socket that hasn't authenticated within 10 s,
        // and on a loaded machine the REST reads of the first checkpoint can take that long.
        try recorder.pump("authenticated and subscribed") { recorder.haVersion != nil }
        try await follow("subscribed, the initial states", ha, recorder) {}
        for (step, values) in Self.steps {
            try await follow(step, ha, recorder) { try await ha.setAppliance(values) }
        }
        try await follow("an entity appears", ha, recorder) { try await ha.setState(Self.probe, "1", attributes: ["unit_of_measurement": "%"]) }
        try await follow("and is removed", ha, recorder) { _ = try await ha.request("DELETE", "/api/states/\(Self.probe)") }
        try recorder.pump("a ping answered") { recorder.steps.contains { ($0["text"] as? String)?.contains(#""pong""#) ?? false } }
        #expect(recorder.haVersion == ha.version)

        let recorded = try recorder.fixture()
        let file = Self.fixtureURL(ha.version)
        if ProcessInfo.processInfo.environment["CYCLETRACK_RECORD_WS"] == "1" {
            try recorded.write(to: file, atomically: true, encoding: .utf8)
            print("SubscribeEntitiesRecordingTests: recorded \(recorder.steps.count) steps to \(file.path)")
            return
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        let (now, then) = (try RecordedShape.shapes(of: recorded), try RecordedShape.shapes(of: committed))
        #expect(now.subtracting(then).isEmpty, "HA \(ha.version) now says what the recording doesn't: \(now.subtracting(then).sorted())")
        #expect(then.subtracting(now).isEmpty, "HA \(ha.version) no longer says: \(then.subtracting(now).sorted())")
    }

    /// Does `change`, then reads the socket until the session believes what HA's REST API
    /// shows for every tracked entity; records that as a checkpoint.
    private func follow(_ step: String, _ ha: HomeAssistantProcess, _ recorder: SubscribeEntitiesRecorder,
                        _ change: () async throws -> Void) async throws {
        try await change()
        var shown: [String: String?] = [:]
        for id in Self.tracked {
            shown[id] = try await ha.state(id)?["state"] as? String
        }
        try recorder.pump(step) {
            shown.allSatisfy { id, state in
                guard let believed = recorder.believed[id] else { return false }
                return believed?.value.text == state
            }
        }
        recorder.checkpoint(step, states: shown)
    }
}

/// The shape of a recorded exchange, for comparing two recordings: each message with its
/// values replaced by their JSON types, except `type`, `event_type`, `success` and the
/// entity ids (which say what the message is).
enum RecordedShape {
    static func shapes(of fixture: String) throws -> Set<String> {
        guard case .object(let root) = try JSONDecoder().decode(JSONTree.self, from: Data(fixture.utf8)),
              case .array(let exchange)? = root["exchange"] else {
            throw HomeAssistantTestError("not a recorded exchange")
        }
        var shapes: Set<String> = []
        for case .object(let step) in exchange {
            guard case .string(let from)? = step["from"], case .string(let text)? = step["text"] else { continue }
            let message = try JSONDecoder().decode(JSONTree.self, from: Data(text.utf8))
            let parts: [JSONTree] = if case .array(let coalesced) = message { coalesced } else { [message] }
            for part in parts {
                shapes.insert(from + " " + shape(part))
            }
        }
        return shapes
    }

    static func shape(_ value: JSONTree, key: String? = nil) -> String {
        switch value {
        case .object(let object):
            return "{" + object.keys.sorted().map { "\($0):\(shape(object[$0]!, key: $0))" }.joined(separator: ",") + "}"
        case .array(let array):
            return "[" + Set(array.map { shape($0) }).sorted().joined(separator: "|") + "]"
        case .string(let text):
            let named = ["type", "event_type"].contains(key ?? "") || HomeAssistantTemplates.isValidEntityID(text)
            return named ? "\"\(text)\"" : "string"
        case .bool(let flag): return key == "success" ? "\(flag)" : "bool"
        case .number: return "number"
        case .null: return "null"
        }
    }
}
