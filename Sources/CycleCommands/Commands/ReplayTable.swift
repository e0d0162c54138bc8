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

