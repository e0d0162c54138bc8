import CycleCore
import CycleService
import FoundationEssentials
import HomeAssistantAPI
#if canImport(Glibc)
import Glibc
#endif

/// Inside the add-on, announces the local API to the Supervisor (`POST
/// http://supervisor/discovery`, docs/API.md, "Add-on discovery"), so that Home
/// Assistant offers to set the integration up. Failures are logged, never fatal.
public struct SupervisorDiscovery: Sendable {
    /// `http://supervisor` in the add-on.
    public var supervisorURL: String
    public var token: String
    public var http: HTTPClient

    public init(supervisorURL: String = "http://supervisor", token: String, http: HTTPClient = HTTPClient()) {
        self.supervisorURL = supervisorURL
        self.token = token
        self.http = http
    }

    /// The body the Supervisor takes.
    static func body(host: String, port: Int, key: APIKey) -> [UInt8] {
        Array(JSONObject([
            ("service", .string("cycletrack")),
            ("config", .object(JSONObject([("host", .string(host)), ("port", .int(port)), ("api_key", .string(key.text))]))),
        ]).compactJSON().utf8)
    }

    /// Announces `host:port` with the key; true when the Supervisor took it.
    @discardableResult
    public func announce(host: String, port: Int, key: APIKey, log: Log) async -> Bool {
        let request = HTTPRequest(method: .post, url: supervisorURL + "/discovery",
                                  headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                                  body: Self.body(host: host, port: port, key: key))
        do {
            let response = try await http.send(request)
            guard (200..<300).contains(response.status) else {
                log.warning("discovery_announce_failed", ["status": String(response.status), "url": supervisorURL + "/discovery",
                                                          "action": "set the integration up by hand (URL and 'cycletrack api-key')"])
                return false
            }
            log.info("discovery_announced", ["host": host, "port": String(port)])
            return true
        } catch {
            log.warning("discovery_announce_failed", ["error": error.description, "url": supervisorURL + "/discovery",
                                                      "action": "set the integration up by hand (URL and 'cycletrack api-key')"])
            return false
        }
    }
}
