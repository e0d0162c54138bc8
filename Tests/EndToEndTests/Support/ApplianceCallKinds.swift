import CycleCore
import Foundation

extension HomeAssistantProcess {
    /// One appliance's Supernotify calls in order, each as start, quiet, clear or end.
    func callKinds(of applianceID: String) throws -> [String] {
        let tag = NotificationTag.live(applianceID: applianceID)
        return try supernotifyCalls().compactMap { call in
            let extra = call.data["extra_data"] as? [String: Any] ?? [:]
            guard let callTag = extra["mobile_push_notification_tag"] as? String, callTag.hasPrefix(tag) else { return nil }
            if extra["mobile_push_clear_notification"] as? Bool == true { return "clear" }
            if callTag.hasSuffix("_end") { return "end" }
            return extra["silent"] as? Bool == true ? "quiet" : "start"
        }
    }

    /// `callKinds(of:)` once it contains `kind`, or as it is after `timeout` seconds.
    func callKinds(of applianceID: String, once kind: String, timeout: Double = 30) async throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let seen = try callKinds(of: applianceID)
            if seen.contains(kind) { return seen }
            try await Task.sleep(for: .milliseconds(200))
        }
        return try callKinds(of: applianceID)
    }
}

/// The cycles `cycletrack query --format json` lists in the database at `path`.
func storedCycles(database path: String) throws -> [[String: Any]] {
    let query = try CycletrackProcess.run(["query", "--db", path, "--format", "json"])
    guard let cycles = try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]] else {
        throw HomeAssistantTestError("cycletrack query printed no JSON list: \(query.stdout)")
    }
    return cycles
}
