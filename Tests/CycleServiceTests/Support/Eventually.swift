import Foundation
import Testing

/// Waits until `condition` holds, looking every 10 ms; records an issue naming `what`
/// when it still doesn't after `timeout` seconds (for what a real-time run brings about;
/// generous, because a loaded machine, e.g. CI beside other builds, can be slow: the bound
/// only decides how long a failure takes to show, never whether a test passes).
func eventually(_ what: String, timeout: Double = 60, _ condition: () async -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !(await condition()) {
        if Date() > deadline { Issue.record("timed out waiting for \(what)"); return }
        try await Task.sleep(for: .milliseconds(10))
    }
}
