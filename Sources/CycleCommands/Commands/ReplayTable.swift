import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore

/// `replay --format table`: one aligned line per call, for reading a tuning's cost.
enum ReplayTable {
    static func render(_ calls: [SupernotifyCall]) -> String {
        var table = TextTable([("time (UTC)", .left), ("kind", .left), ("why", .left), ("progress", .right),
                               ("title", .left), ("message", .left)])
        for call in calls {
            let extra: JSONObject? = if case .object(let object)? = call.body["extra_data"] { object } else { nil }
            let progress: String = if case .int(let value)? = extra?["progress"] { "\(value)%" } else { "" }
            table.rows.append([
                String(ISOTime.format(call.at).dropFirst(11).prefix(8)), call.kind.rawValue, call.reason, progress,
                text(call.body["title"]), text(call.body["message"]),
            ])
        }
        return table.text
    }

    private static func text(_ value: JSONValue?) -> String {
        if case .string(let string)? = value { return string }
        return ""
    }
}

/// The summary `replay` writes to stderr: cycles with their outcome, calls per kind, total.
enum ReplaySummary {
    static func render(_ result: ReplayResult, settings: ApplianceSettings) -> String {
        var lines: [String] = []
        for warning in result.warnings { lines.append("warning: \(warning)") }
        let ended = result.cycles.map { cycle in
            let program = cycle.program.map { " \(ProgramName.readable($0))" } ?? ""
            let calls = cycle.calls.count
            return "\(cycle.outcome?.rawValue ?? "still running")\(program), \(calls) call\(calls == 1 ? "" : "s")"
        }
        lines.append("cycles: \(result.cycles.count)" + (ended.isEmpty ? "" : " (\(ended.joined(separator: "; ")))"))
        // Reminders only when there are some: the line stays as it was for everything else.
        let perKind = CallKind.allCases.compactMap { kind -> String? in
            let count = result.calls.filter { $0.kind == kind }.count
            return kind == .reminder && count == 0 ? nil : "\(kind.rawValue) \(count)"
        }
        lines.append("calls: \(perKind.joined(separator: ", ")), total \(result.calls.count)")
        let held = result.effects.filter { if case .heldBack = $0 { true } else { false } }.count
        if held > 0 { lines.append("held back: \(held) (budget)") }
        lines.append("per-cycle limit: \(settings.cyclePushLimit)")
        if !result.droppedSteps.isEmpty {
            lines.append("steps dropped to fit the limit: \(result.droppedSteps.map(String.init).joined(separator: ", "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
