import Foundation
import Testing

/// Waits until `condition` holds, looking every 20 ms, and records an issue naming `what`
/// (then throws) when it still doesn't after `timeout` seconds: for what another thread
/// brings about at its own pace (a ping, a closed subscription). The bound only decides
/// how long a failure takes to show.
func until(_ what: String, timeout: Double = 60, _ condition: () throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !(try condition()) {
        guard Date() < deadline else {
            Issue.record("timed out after \(timeout) s waiting for \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}
