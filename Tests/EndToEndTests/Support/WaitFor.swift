import Foundation

/// Waits until `condition` holds, looking every 50 ms, and throws naming `what` when it still
/// doesn't after `timeout` seconds. End-to-end tests wait for what they need (a log line, a
/// recorded call, a poll), never for a fixed time; the bound only decides how long a failure
/// takes to show.
func waitFor(_ what: String, timeout: Double = 60, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !(try await condition()) {
        guard Date() < deadline else { throw HomeAssistantTestError("timed out after \(timeout) s waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(50))
    }
}
