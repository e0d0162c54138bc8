import CycleCore
import CycleService
import FoundationEssentials
import HistoryWeb
import Synchronization

/// The local API under `/api/v1/` (docs/API.md), served by the same server as the
/// history page: the service, the appliances, their settings, the early end of a Live
/// Activity and the event stream. Only the integration may call it: every request must
/// carry the bearer key, else 401 and an `api_refused` line (the address and the path,
/// never the key) for the address's first refusal and then at most one a minute
/// (`RefusalLog`). Answers on the server's connection threads.
public final class ServiceAPI: Sendable {
    let link: ServiceLink
    private let key: APIKey
    private let log: Log
    private let refusals = Mutex(RefusalLog())
    private let now: @Sendable () -> ContinuousClock.Instant

    public init(link: ServiceLink, key: APIKey, log: Log, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.link = link
        self.key = key
        self.log = log
        self.now = now
    }

    /// What a request without the key is told; `check` knows a running cycletrack by it.
    public static let unauthorizedMessage = "this API needs 'Authorization: Bearer <key>' with the key 'cycletrack api-key' prints"

    /// Whether a path is the API's (the rest is the history page's).
    public static func handles(_ path: String) -> Bool { path == "/api" || path.hasPrefix("/api/") }

    /// The answer to one `/api` request.
    public func respond(to request: HistoryRequest) -> HistoryResponse {
        guard key.accepts(authorization: request.authorization) else {
            logRefusal(request)
            return Self.error(401, "unauthorized", Self.unauthorizedMessage,
                              headers: [("WWW-Authenticate", "Bearer")])
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "v1" else {
            return Self.error(404, "not_found", "no such API path: \(request.path) (the API is under /api/v1/)")
        }
        let route = Array(parts.dropFirst(2))
        switch (request.method, route.count) {
        case ("GET", _) where ["household", "people"].contains(route[0]), ("HEAD", _) where ["household", "people"].contains(route[0]):
            return readHousehold(route, path: request.path)
        case ("PATCH", _) where Self.householdSettings(route) != nil:
            return changeHousehold(route, body: request.body)
        case ("GET", _), ("HEAD", _):
            return read(route, request: request)
        case ("PATCH", 3) where route[0] == "appliances" && route[2] == "settings":
            return changeSettings(route[1], body: request.body)
        case ("POST", 3) where route[0] == "appliances" && route[2] == "end_activity":
            return endActivity(route[1])
        case ("POST", 3) where route[0] == "appliances" && route[2] == "unloaded":
            return answer(link.submit(.unloaded(applianceID: route[1])), id: route[1], success: 202)
        case ("PUT", 1) where route[0] == "integration", ("DELETE", 1) where route[0] == "integration":
            return answer(link.submit(.integration(configured: request.method == "PUT")), id: "", success: 200)
        default:
            let allowed = Self.allowed(route)
            guard let allowed else { return Self.error(404, "not_found", "no such API path: \(request.path)") }
            return Self.error(405, "method_not_allowed", "\(request.path) takes \(allowed), not \(request.method)",
                              headers: [("Allow", allowed)])
        }
    }

    private func logRefusal(_ request: HistoryRequest) {
        let client = request.client.isEmpty ? "-" : request.client
        let at = now()
        guard let line = refusals.withLock({ $0.refused(client, at: at) }) else { return }
        let reason = request.authorization == nil ? "no key" : "wrong key"
        if line.unlogged == 0 {
            log.warning("api_refused", ["client": line.client, "path": request.path, "reason": reason])
        } else {
            log.warning("api_refused", ["client": line.client, "path": request.path, "reason": reason,
                                        "unlogged": String(line.unlogged), "meaning": "refusals since this client's last line"])
        }
    }

    private func read(_ route: [String], request: HistoryRequest) -> HistoryResponse {
        guard let (service, appliances) = link.snapshot() else {
            return Self.error(503, "starting", "the service is starting; try again in a moment")
        }
        switch route {
        case ["service"]:
            return Self.json(APIJSON.service(service))
        case ["appliances"]:
            return Self.json(APIJSON.appliances(appliances))
        case let path where path.count == 2 && path[0] == "appliances":
            guard let appliance = appliances.first(where: { $0.id == path[1] }) else { return Self.unknown(path[1]) }
            return Self.json(APIJSON.appliance(appliance))
        case ["events"]:
            guard let subscription = link.subscribe() else {
                return Self.error(503, "too_many_streams", "\(link.streamLimit) event streams are open already")
            }
            let snapshot = JSONObject([
                ("service", .object(APIJSON.service(service))), ("appliances", .array(appliances.map { .object(APIJSON.appliance($0)) })),
            ])
            log.info("api_stream_opened", ["client": request.client.isEmpty ? "-" : request.client])
            return HistoryResponse(status: 200, contentType: "text/event-stream", body: "",
                                   headers: [("X-Accel-Buffering", "no")],
                                   stream: EventStream(subscription: subscription, snapshot: snapshot))
        default:
            if Self.allowed(route) != nil {
                return Self.error(405, "method_not_allowed", "\(request.path) takes \(Self.allowed(route) ?? ""), not GET",
                                  headers: [("Allow", Self.allowed(route) ?? "")])
            }
            return Self.error(404, "not_found", "no such API path: \(request.path)")
        }
    }

    private func changeSettings(_ id: String, body: [UInt8]) -> HistoryResponse {
        let change: SettingsChange
        do {
            change = try SettingsJSON.change(body)
        } catch {
            return Self.error(400, "bad_request", error.message)
        }
        return answer(link.submit(.changeSettings(applianceID: id, change)), id: id, success: 200)
    }

    private func endActivity(_ id: String) -> HistoryResponse {
        answer(link.submit(.endActivity(applianceID: id)), id: id, success: 202)
    }

    func answer(_ outcome: CommandOutcome?, id: String, success: Int) -> HistoryResponse {
        switch outcome {
        case .household(let household):
            let person = id.isEmpty ? nil : household.person(id)
            return Self.json(person.map(APIJSON.person) ?? APIJSON.household(household))
        case .unknownPerson:
            return Self.unknownPerson(id)
        case .integration(let configured):
            return Self.json(JSONObject([("configured", .bool(configured))]))
        case .done(let snapshot):
            let body = success == 202 ? JSONObject([("accepted", .bool(true))]) : APIJSON.appliance(snapshot)
            return HistoryResponse(status: success, contentType: "application/json", body: body.compactJSON())
        case .unknownAppliance:
            return Self.unknown(id)
        case .noActivity:
            let name = link.snapshot()?.appliances.first { $0.id == id }?.name ?? id
            return Self.error(409, "no_activity", "\(name) shows no Live Activity now (no cycle runs, or it was ended already)")
        case .refused(let why):
            return Self.error(503, "unavailable", why)
        case nil:
            return Self.error(503, "busy", "the service did not take the command within 10 s; try again")
        }
    }

    /// The methods a known path takes; nil for an unknown path.
    static func allowed(_ route: [String]) -> String? {
        switch route.count {
        case 1 where ["service", "appliances", "events"].contains(route[0]): "GET, HEAD"
        case 2 where route[0] == "appliances": "GET, HEAD"
        case 3 where route[0] == "appliances" && route[2] == "settings": "PATCH"
        case 3 where route[0] == "appliances" && ["end_activity", "unloaded"].contains(route[2]): "POST"
        case 1 where route[0] == "integration": "PUT, DELETE"
        case _ where route == ["household"], 2 where route[0] == "people": "GET, HEAD"
        case _ where householdSettings(route) != nil: "PATCH"
        default: nil
        }
    }

    private static func unknown(_ id: String) -> HistoryResponse {
        error(404, "unknown_appliance", "no appliance '\(id)' is followed (GET /api/v1/appliances lists them)")
    }

    static func json(_ object: JSONObject) -> HistoryResponse {
        HistoryResponse(status: 200, contentType: "application/json", body: object.compactJSON())
    }

    static func error(_ status: Int, _ code: String, _ message: String, headers: [(name: String, value: String)] = []) -> HistoryResponse {
        HistoryResponse(status: status, contentType: "application/json", body: APIJSON.error(code, message), headers: headers)
    }
}
