import Foundation

extension CycletrackProcess {
    /// Waits (bounded by `timeout` seconds) until `run` has logged `count` more
    /// `event=polled` lines (`CYCLETRACK_LOG=debug`): the last of them read Home Assistant
    /// after this call began, so the service has seen what HA showed then.
    func waitForPolls(_ count: Int = 2, timeout: Double = 30) async throws {
        func polls() -> Int { stderrSoFar.components(separatedBy: "event=polled").count }
        let target = polls() + count
        let deadline = Date().addingTimeInterval(timeout)
        while polls() < target, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
