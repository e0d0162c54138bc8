/// The real-HA phase's table, with the targets of issue 18 (docs/BENCHMARK.md).
extension RealHomeAssistantBenchmark {
    static let latencyTarget = 0.050
    /// Issue 31's target for a service beside HA on a quiet machine: p95 at most 5 ms.
    static let quietLatencyTarget = 0.005
    static let backTarget = 2.0

    var text: String {
        var table = PlainTable(["real Home Assistant \(RealHomeAssistant.version), events mode", "value", "target", "result"])
        let p95 = Summary.percentile(fromState, 95) ?? .infinity
        table.rows.append(["state_changed → call_service (HA's time_fired of each)", Self.spread(fromState), "p95 < 50 ms",
                           p95 < Self.latencyTarget ? "ok" : "missed"])
        let quiet = isQuiet
        table.rows.append(["  the same, on a quiet machine (load average < 1 as the changes began)",
                           quiet ? "p95 \(Summary.fixed(p95 * 1000, 1)) ms" : "load \(loadAtStart.map { Summary.fixed($0, 2) } ?? "unknown")",
                           "p95 ≤ 5 ms", quiet ? (p95 <= Self.quietLatencyTarget ? "ok" : "missed") : "not judged"])
        table.rows.append(["set_state sent by the benchmark → call_service", Self.spread(fromRequest), "-", "-"])
        table.rows.append(["changes, of them setting 2 entities (one action, entity by entity)",
                           "\(changes), \(multiEntityChanges)", "-", "-"])
        table.rows.append(["changes that made other than one observation",
                           burstProblems.isEmpty ? "none" : burstProblems.prefix(5).joined(separator: "; "), "none",
                           burstProblems.isEmpty ? "ok" : "missed"])
        table.rows.append(["calls missing or not the one expected", problems.isEmpty ? "0" : problems.joined(separator: "; "), "0",
                           problems.isEmpty ? "ok" : "missed"])
        if !restartBack.isEmpty {
            let worst = restartBack.max() ?? .infinity
            table.rows.append(["HA restarted mid-cycle: HA answering → subscribed", Self.list(restartConnected), "-", "-"])
            table.rows.append(["HA restarted mid-cycle: HA answering → back (first read done)", Self.list(restartBack), "< 2 s",
                               worst < Self.backTarget ? "ok" : "missed"])
            if let young = youngRestartBack {
                table.rows.append(["again at once (subscription < 30 s old): HA answering → back", Self.list([young]), "< 2 s",
                                   young < Self.backTarget ? "ok" : "missed"])
            }
            table.rows.append(["first change after each restart → Supernotify call", Self.list(afterRestart), "-", "-"])
        }
        table.rows.append(["cycletrack run stopped by SIGTERM", exitStatus.map { "\($0)" } ?? "did not stop", "exit 0",
                           exitStatus == .exited(0) ? "ok" : "missed"])
        return table.text + "\n" + loads.joined(separator: "\n")
    }

    /// Every target met.
    var met: Bool {
        let p95 = Summary.percentile(fromState, 95) ?? .infinity
        return p95 < Self.latencyTarget && (!isQuiet || p95 <= Self.quietLatencyTarget) && burstProblems.isEmpty && problems.isEmpty
            && max(restartBack.max() ?? 0, youngRestartBack ?? 0) < Self.backTarget && exitStatus == .exited(0)
    }

    /// The machine was quiet as the changes began: the one-minute load average under 1.
    var isQuiet: Bool { loadAtStart.map { $0 < 1 } ?? false }

    private static func spread(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "none" }
        let ms = { (value: Double?) in Summary.fixed((value ?? 0) * 1000, 1) }
        return "p50 \(ms(Summary.percentile(values, 50))) ms, p95 \(ms(Summary.percentile(values, 95))) ms, "
            + "max \(ms(values.max())) ms over \(values.count)"
    }

    private static func list(_ values: [Double]) -> String {
        values.map { Summary.fixed($0, 3) }.joined(separator: ", ") + " s"
    }
}
