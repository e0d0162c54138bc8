import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCommands
import Foundation
import Testing

/// The WebSocket client against the real Home Assistant 2024.3.3: the handshake and
/// framing as HA's aiohttp server does them, auth, `subscribe_entities`, registry
/// events, and HA going away (stopped, frozen, restarted).
@Suite(
    "WebSocket client against a real Home Assistant",
    .serialized,
    .timeLimit(.minutes(5)),
    .realHomeAssistant
)
struct HomeAssistantWebSocketTests {
    let ha: HomeAssistantProcess
    let token: String

    static let operationState = "sensor.dishwasher_operation_state"
    static let probe = "sensor.cycletrack_ws_probe"

    init() async throws {
        ha = try await .started()
        token = try String(contentsOf: ha.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func connect(_ entityIDs: [String] = [operationState, probe], registries: [HomeAssistantWebSocket.Registry] = [],
                         token: String? = nil,
                         configuration: HomeAssistantWebSocket.Configuration = .init()) async throws -> HomeAssistantWebSocket {
        try await HomeAssistantWebSocket.connect(baseURL: ha.url.absoluteString, token: token ?? self.token,
                                                 entityIDs: entityIDs, registries: registries, configuration: configuration)
    }

    /// Events until `condition` holds for one (returned), or the stream ends (nil).
    private func next(_ iterator: inout AsyncThrowingStream<HomeAssistantWebSocket.Event, any Error>.Iterator,
                      where condition: (HomeAssistantWebSocket.Event) -> Bool) async throws -> HomeAssistantWebSocket.Event? {
        while let event = try await iterator.next() {
            if condition(event) { return event }
        }
        return nil
    }

    /// The next states, and that they end HA's batch (it coalesces its messages, asked
    /// with `supported_features` after subscribing): returned without that mark.
    private func nextChange(_ events: inout AsyncThrowingStream<HomeAssistantWebSocket.Event, any Error>.Iterator) async throws
        -> HomeAssistantWebSocket.Event? {
        let change = try await events.next()
        guard case .states(let states, let endsBatch) = change else { return change }
        #expect(endsBatch, "HA \(HomeAssistantProcess.version) ends the batch of \(states)")
        return .states(states)
    }

    @Test func subscribesAndDeliversInitialStatesThenEveryChangeOfATrackedEntity() async throws {
        try await ha.setAppliance(["operation_state": "ready"])
        let socket = try await connect()
        #expect(socket.haVersion == HomeAssistantProcess.version)
        var events = socket.events.makeAsyncIterator()
        let first = try await events.next()
        guard case .states(let initial, _) = first else {
            Issue.record("expected the initial states, got \(String(describing: first))")
            return
        }
        #expect(initial.keys.sorted() == [Self.operationState, Self.probe].sorted())
        #expect(initial[Self.operationState]??.value.text == "ready")
        #expect(initial[Self.probe] == .some(nil), "an entity HA doesn't have is nil")

        // Appears, with a unit; then a change of state only; then of the unit only.
        try await ha.setState(Self.probe, "10", attributes: ["unit_of_measurement": "%"])
        #expect(try await nextChange(&events) == .states([Self.probe: EntityState(state: "10", unit: "%")]))
        try await ha.setState(Self.probe, "20", attributes: ["unit_of_measurement": "%"])
        #expect(try await nextChange(&events) == .states([Self.probe: EntityState(state: "20", unit: "%")]))
        try await ha.setState(Self.probe, "20", attributes: ["unit_of_measurement": "min"])
        #expect(try await nextChange(&events) == .states([Self.probe: EntityState(state: "20", unit: "min")]))
        // An attribute that doesn't matter changes nothing; the next real change comes through.
        try await ha.setState(Self.probe, "20", attributes: ["unit_of_measurement": "min", "friendly_name": "Probe"])
        try await ha.setAppliance(["operation_state": "run"])
        #expect(try await nextChange(&events) == .states([Self.operationState: initial[Self.operationState]!.map {
            EntityState(state: "run", unit: $0.unit, deviceClass: $0.deviceClass) }]))
        // An untracked entity is never reported.
        try await ha.setState("sensor.someone_else", "1")
        try await ha.setState(Self.probe, "30", attributes: ["unit_of_measurement": "min"])
        #expect(try await nextChange(&events) == .states([Self.probe: EntityState(state: "30", unit: "min")]))
        socket.close()
        #expect(try await events.next() == nil)
    }

    @Test func aWrongTokenIsAuthInvalid() async throws {
        await #expect {
            _ = try await connect(token: "not-the-token")
        } throws: { error in
            guard case HomeAssistantWebSocketError.authInvalid = error else { return false }
            return !"\(error)".contains("not-the-token")
        }
    }

    @Test func deletingTheConfigEntryFiresRegistryEventsAndRemovesTheStates() async throws {
        let socket = try await connect([Self.operationState], registries: [.entity, .device])
        var events = socket.events.makeAsyncIterator()
        _ = try await events.next()
        let entries = try await ha.getJSON("/api/config/config_entries/entry?domain=home_connect") as? [[String: Any]]
        let entryID = try #require(entries?.first?["entry_id"] as? String)
        let (status, _) = try await ha.request("DELETE", "/api/config/config_entries/entry/\(entryID)")
        #expect(status == 200)
        var seen: [HomeAssistantWebSocket.Event] = []
        // HA coalesces: the removal is a batch of its own.
        let removed = HomeAssistantWebSocket.Event.states([Self.operationState: nil], endsBatch: true)
        while !(seen.contains(.registryUpdated(.entity, action: "remove"))
                && seen.contains(.registryUpdated(.device, action: "remove"))
                && seen.contains(removed)) {
            guard let event = try await events.next() else { break }
            seen.append(event)
        }
        #expect(seen.contains(.registryUpdated(.entity, action: "remove")), "\(seen)")
        #expect(seen.contains(.registryUpdated(.device, action: "remove")), "\(seen)")
        #expect(seen.contains(removed), "\(seen)")
        socket.close()
    }

    @Test func aFrozenHomeAssistantIsFoundDeadByThePingTimeout() async throws {
        let socket = try await connect(configuration: .init(pingInterval: 1, pongTimeout: 2))
        var events = socket.events.makeAsyncIterator()
        _ = try await events.next()
        ha.pause()
        defer { ha.resume() }
        await #expect(throws: HomeAssistantWebSocketError.noPong(url: socket.url, seconds: 2)) {
            while try await events.next() != nil {}
        }
    }

    @Test func homeAssistantStoppedIsReportedAndAReconnectWorksAfterItsRestart() async throws {
        let socket = try await connect()
        var events = socket.events.makeAsyncIterator()
        _ = try await events.next()
        await ha.stop()
        do {
            while try await events.next() != nil {}
            Issue.record("the events ended without an error")
        } catch let error as HomeAssistantWebSocketError {
            guard case .connection(let failure) = error else {
                Issue.record("expected a connection failure, got \(error)")
                return
            }
            switch failure.kind {
            case .closedByServer, .connectionLost: break
            default: Issue.record("expected a close or a lost connection, got \(failure)")
            }
        }
        try await ha.start()
        let again = try await connect()
        var more = again.events.makeAsyncIterator()
        guard case .states(let states, _) = try await more.next() else {
            Issue.record("expected the initial states after the reconnect")
            return
        }
        #expect(states.keys.contains(Self.operationState))
        again.close()
    }
}
