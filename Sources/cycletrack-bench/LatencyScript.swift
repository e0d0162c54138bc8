/// What the latency phase does to one appliance, change by change: cycles of a start,
/// step crossings with a pause and a resume among them, and a finish. Every change is
/// one the planner sends at once with `settle_seconds` and `min_update_seconds` at 0
/// (docs/PUSHES.md): a start; a step crossing (10, 20 … 90, then 92 … 98); a pause or
/// resume (always news while a slot is free). A cycle holds at most 15 of them, the
/// update slots `cycle_push_limit` 18 leaves after the start, the clear and the end.
struct LatencyScript {
    struct Change {
        enum Kind: Equatable {
            /// `ready` → `run`: the start call.
            case start
            /// In a running cycle: a step crossing, a pause or a resume.
            case running
            /// `run` → `finished`: the clear, then the end notification.
            case end
            /// Back to `ready`: no call.
            case rest
        }

        var kind: Kind
        /// Entity → new state, set in this order.
        var updates: [(entity: String, state: String)]
        /// Calls it makes.
        var calls: Int
        /// Text the first call's body holds (its message or title).
        var expect: String
    }

    /// Step crossings, a pause and a resume: the 15 changes a cycle can send.
    private static let running: [String] = ["10", "20", "30", "40", "50", "pause", "run", "60", "70", "80", "90",
                                            "92", "94", "96", "98"]

    let changes: [Change]
    let cycles: Int

    /// Cycles with `runningChanges` changes in running cycles in all (15 per cycle, the
    /// last one as many as are left).
    init(appliance: HouseholdAppliance, runningChanges: Int) {
        let operation = appliance.entities[.operationState] ?? ""
        let progress = appliance.entities[.progress] ?? ""
        var changes: [Change] = []
        var left = runningChanges
        var cycles = 0
        while left > 0 {
            cycles += 1
            changes.append(Change(kind: .start, updates: [(operation, "run"), (progress, "0")], calls: 1, expect: "started"))
            var percent = "0"
            for step in Self.running.prefix(left) {
                switch step {
                case "pause":
                    changes.append(Change(kind: .running, updates: [(operation, "pause")], calls: 1, expect: "Paused"))
                case "run":
                    changes.append(Change(kind: .running, updates: [(operation, "run")], calls: 1, expect: percent + "%"))
                default:
                    percent = step
                    changes.append(Change(kind: .running, updates: [(progress, step)], calls: 1, expect: step + "%"))
                }
            }
            left -= min(left, Self.running.count)
            changes.append(Change(kind: .end, updates: [(operation, "finished"), (progress, "100")], calls: 2,
                                  expect: "finished"))
            changes.append(Change(kind: .rest, updates: [(operation, "ready"), (progress, "unavailable")], calls: 0,
                                  expect: ""))
        }
        self.changes = changes
        self.cycles = cycles
    }
}
