/// The benchmark's summary: one row per metric with its value, its target (if any)
/// and whether the target was met.
struct ResultTable {
    enum Verdict: String {
        case ok
        case missed
        /// No target: a measurement for context.
        case info = "-"
    }

    struct Row {
        var metric: String
        var value: String
        var target: String
        var verdict: Verdict
    }

    private(set) var rows: [Row] = []

    /// A row without a target.
    mutating func add(_ metric: String, _ value: String) {
        rows.append(Row(metric: metric, value: value, target: "-", verdict: .info))
    }

    /// A row whose target `met` or not.
    mutating func add(_ metric: String, _ value: String, target: String, met: Bool) {
        rows.append(Row(metric: metric, value: value, target: target, verdict: met ? .ok : .missed))
    }

    var missed: [Row] { rows.filter { $0.verdict == .missed } }

    var text: String {
        var table = PlainTable(["metric", "value", "target", "result"], leftAligned: [0, 1, 2, 3])
        table.rows = rows.map { [$0.metric, $0.value, $0.target, $0.verdict.rawValue] }
        return table.text
    }
}
