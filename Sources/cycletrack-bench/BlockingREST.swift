import Dispatch
import FoundationEssentials
import HomeAssistantAPI

/// Home Assistant's REST API for the real-HA phase, one blocking request at a time
/// (the benchmark's loops are synchronous): libcurl through `HTTPClient`, 127.0.0.1 only.
/// The token is read from its file for each request and goes only into the header.
final class BlockingREST: @unchecked Sendable {
    // Unchecked: `client` is Sendable; the box below is written once before the semaphore is signalled.
    let baseURL: String
    private let tokenFile: String
    private let client: HTTPClient

    init(baseURL: String, tokenFile: String, timeoutSeconds: Double = 10) {
        self.baseURL = baseURL
        self.tokenFile = tokenFile
        client = HTTPClient(configuration: .init(connectTimeout: min(1, timeoutSeconds), totalTimeout: timeoutSeconds))
    }

    /// The status and body, or nil when no answer came (refused, timed out).
    func send(_ method: HTTPRequest.Method, _ path: String, json: String? = nil, authorized: Bool = true) -> (status: Int, body: String)? {
        var headers: [(name: String, value: String)] = []
        if authorized, let token = readToken() { headers.append(("Authorization", "Bearer " + token)) }
        if json != nil { headers.append(("Content-Type", "application/json")) }
        let request = HTTPRequest(method: method, url: baseURL + path, headers: headers, body: json.map { Array($0.utf8) })
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        let client = self.client
        Task {
            box.value = try? await client.send(request)
            done.signal()
        }
        done.wait()
        guard let response = box.value else { return nil }
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    private func readToken() -> String? {
        guard let data = FileManager.default.contents(atPath: tokenFile) else { return nil }
        let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
        return text.isEmpty ? nil : text
    }

    private final class ResultBox: @unchecked Sendable {
        var value: HTTPResponse?
    }
}
