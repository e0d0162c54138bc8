import CycleCore
import FoundationEssentials
import Foundation
import HTTPStandIn
import Synchronization
import Testing
import TestSupport
@testable import CycleHistory
@testable import HomeAssistantAPI
@testable import CycleService
@testable import CycleCommands
@testable import HistoryWeb
@testable import ServiceAPI
#if canImport(Glibc)
import Glibc
#endif

/// The service as `run` starts it, for the local API's tests: a runner polling a stand-in
/// HA in real time, a real SQLite file, the server on 127.0.0.1 with the API and the key
/// beside the database. A dishwasher runs Eco 50 at 42 % from the start.
final class APIFixture: @unchecked Sendable {
    let store: StoreFixture
    let standIn: HomeAssistantStandIn
    let capture = LogCapture()
    let key: APIKey
    private(set) var link: ServiceLink!
    private(set) var server: HistoryServer!
    private var task: Task<Void, Never>?
    /// Seconds added to the link's clock: the 60 s of "no stream" pass at once.
    let shift = TimeShift()
    /// The configuration's quiet hours and people.
    let delivery: DeliverySettings

    var database: String { store.path() }
    var base: String { "http://127.0.0.1:\(server.port)" }

    init(entities: Bool = true, delivery: DeliverySettings = DeliverySettings()) async throws {
        self.delivery = delivery
        store = try StoreFixture()
        standIn = try HomeAssistantStandIn()
        key = try APIKey.loadOrCreate(APIKey.path(besideDatabase: store.path())).key
        show(progress: 42)
        try await start(entities: entities)
    }

    /// What HA shows for the dishwasher: running at `progress`.
    func show(progress: Int, operation: String = "run") {
        let id = "dishwasher"
        standIn.set(entity: "sensor.\(id)_operation_state", state: operation)
        standIn.set(entity: "sensor.\(id)_progress", state: String(progress), unit: "%")
        standIn.set(entity: "sensor.\(id)_finish_time", state: "2026-12-01T21:05:00+00:00")
        standIn.set(entity: "select.\(id)_active_program", state: "dishcare_dishwasher_program_eco_50")
    }

    /// Starts (or starts again) the runner and the server over the same database.
    func start(entities: Bool = true) async throws {
        let script = ApplianceScript(id: "dishwasher", lines: [])
        var tracked = script.tracked
        tracked.deviceID = "0123456789abcdef0123456789abcdef"
        // Every change may go out at once: the tests wait for what a change sends.
        tracked.settings.settleSeconds = 0
        tracked.settings.minUpdateSeconds = 0
        let shift = self.shift
        let link = ServiceLink(version: CycletrackVersion.current,
                               instanceID: try HistoryStore(path: database).instanceID(making: { UUID().uuidString.lowercased() }, at: Date()),
                               now: { Date().addingTimeInterval(shift.seconds) })
        var options = Runner.Options(activePollSeconds: 0.2, idlePollSeconds: 0.2, dailyPushLimit: 400, rediscoverSeconds: nil)
        options.link = link
        options.updates = .poll
        options.delivery = delivery
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let runner = try Runner(appliances: [tracked], databasePath: database, sourceName: .run, options: options,
                                source: gateway, sink: gateway, surface: entities ? gateway : nil, clock: SystemClock(), log: capture.log)
        let api = ServiceAPI(link: link, key: key, log: capture.log)
        server = try ServeCommand.startPage(.init(listen: "127.0.0.1", port: 0), database: database, timeZone: .utc,
                                            log: capture.log, api: api)
        self.link = link
        task = Task { await runner.run() }
        try await eventually("the cycle runs") { try await self.get("/api/v1/appliances/dishwasher").text.contains("\"state\":\"running\"") }
    }

    /// Stops the runner and the server.
    func stop() async {
        task?.cancel()
        await task?.value
        server.stop()
    }

    /// A request with the key (or `authorization` instead).
    func send(_ method: HTTPRequest.Method, _ path: String, body: String? = nil, authorization: String?? = .none) async throws -> HTTPResponse {
        let header = authorization ?? "Bearer \(key.text)"
        var headers: [(name: String, value: String)] = header.map { [("Authorization", $0)] } ?? []
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await HTTPClient().send(HTTPRequest(method: method, url: base + path, headers: headers, body: body.map { Array($0.utf8) }))
    }

    func get(_ path: String) async throws -> (status: Int, text: String) {
        let response = try await send(.get, path)
        return (response.status, response.text ?? "")
    }

    /// The JSON object of a response.
    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The stand-in's Supernotify calls that clear the Live Activity.
    var clears: Int { standIn.notifyCalls.filter { $0.body.contains("\"mobile_push_clear_notification\":true") }.count }

    /// The states posted for `sensor.cycletrack_*` so far.
    var postedStates: Int { standIn.posts.filter { $0.path.hasPrefix("states/sensor.cycletrack_") }.count }
}

/// Waits until `condition` holds, trying every 50 ms for at most `seconds`: for what
/// another process or thread does at its own pace (a poll, a stream). Generous, as in
/// the service's tests: on a machine at load 11 a few of these took over 30 s; the bound
/// only decides how long a failure takes to show, never whether a test passes.
func eventually(_ what: String, within seconds: Double = 60, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("timed out waiting for \(what)")
    throw CancellationError()
}

/// A raw Server-Sent Events reader over a socket on 127.0.0.1: sends the request, then
/// collects what arrives.
final class EventStreamReader {
    private let socket: Int32
    private(set) var received = ""

    init(port: UInt16, key: String?) throws {
        socket = try LoopbackSocket.connect(port: port, receiveTimeout: timeval(tv_sec: 0, tv_usec: 200_000))
        let request = "GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            + (key.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n"
        let bytes = Array(request.utf8)
        try #require(Glibc.send(socket, bytes, bytes.count, 0) == bytes.count)
    }

    /// Reads until `text` has arrived (true) or `seconds` passed (false).
    func waitFor(_ text: String, within seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !received.contains(text), Date() < deadline {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 { received += String(decoding: buffer[0..<count], as: UTF8.self) }
            if count == 0 { break }
        }
        return received.contains(text)
    }

    func close() { Glibc.close(socket) }
}

/// Seconds added to a clock, set by the test.
final class TimeShift: Sendable {
    private let value = Mutex<Double>(0)
    var seconds: Double { value.withLock { $0 } }
    func set(_ seconds: Double) { value.withLock { $0 = seconds } }
}
