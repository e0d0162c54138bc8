import CycleService
import HistoryWeb
import HomeAssistantAPI
import ServiceAPI

/// `check`'s `http` row: whether `run` can serve the history page and the local API (the
/// integration's way in) where the configuration says. `run` doesn't start when it
/// can't listen there, so this is found out before.
extension CheckCommand {
    func localServerRow(_ config: Configuration) async -> Row {
        guard config.httpPort > 0 else {
            return Row(check: "http", ok: nil, detail: "http.port is 0: no history page and no local API, so the integration can't connect")
        }
        let settings = HistoryServer.Settings(listen: config.httpListen, port: UInt16(clamping: config.httpPort))
        let shown = config.httpListen.contains(":") ? "[\(config.httpListen)]:\(config.httpPort)" : "\(config.httpListen):\(config.httpPort)"
        do {
            let probe = try HistoryServer(settings, respond: { _ in HistoryResponse(status: 503, body: "") })
            probe.stop()
            return Row(check: "http", ok: true, detail: "\(shown) is free: run serves the history page and the local API there")
        } catch {
            if await Self.cycletrackAnswers(listen: config.httpListen, port: config.httpPort) {
                return Row(check: "http", ok: true, detail: "\(shown): a running cycletrack serves the history page and the local API")
            }
            return Row(check: "http", ok: false,
                             detail: "\(error.description): run won't start, and the integration couldn't connect; free the port or set http.port")
        }
    }

    /// Whether what listens there is a cycletrack: its API refuses a request without the
    /// key in its own words.
    static func cycletrackAnswers(listen: String, port: Int) async -> Bool {
        let host = switch listen {
        case "0.0.0.0": "127.0.0.1"
        case "::": "[::1]"
        default: listen.contains(":") ? "[\(listen)]" : listen
        }
        let client = HTTPClient(configuration: .init(connectTimeout: 2, totalTimeout: 5))
        guard let answer = try? await client.send(HTTPRequest(url: "http://\(host):\(port)/api/v1/service")) else { return false }
        return answer.status == 401 && (answer.text ?? "").contains(ServiceAPI.unauthorizedMessage)
    }
}
