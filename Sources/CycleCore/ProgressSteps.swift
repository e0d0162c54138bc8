/// The progress percentages at which a running cycle sends an update (docs/PUSHES.md,
/// "Progress steps"): coarse steps every `step` below `fineFrom`, fine steps every
/// `fineStep` from it, never 100; or an explicit list, all coarse.
public enum ProgressSteps: Sendable, Equatable, Codable {
    case regular(step: Int, fineFrom: Int, fineStep: Int)
    case at([Int])

    /// 10, 20, ... 90, 92, 94, 96, 98.
    public static let `default` = ProgressSteps.regular(step: 10, fineFrom: 90, fineStep: 2)
}

extension ProgressSteps {
    /// The steps in 1...99, ascending: coarse ones (below `fineFrom`, or every
    /// step of an `at` list) and fine ones (from `fineFrom` up to 99).
    public var steps: (coarse: [Int], fine: [Int]) {
        switch self {
        case .regular(let step, let fineFrom, let fineStep):
            let coarse = step > 0 ? Array(stride(from: step, to: min(fineFrom, 100), by: step)) : []
            let fine = fineStep > 0 && fineFrom <= 99 ? Array(stride(from: max(fineFrom, 0), through: 99, by: fineStep)) : []
            return (coarse.filter { (1...99).contains($0) }, fine.filter { (1...99).contains($0) })
        case .at(let list):
            return (Array(Set(list.filter { (1...99).contains($0) })).sorted(), [])
        }
    }

    /// Thins the steps so that at most `slots` remain
    /// (docs/PUSHES.md, "Thinning to fit"): every fine step is kept, and of the
    /// coarse steps every k-th counting down from the last coarse step, with the
    /// smallest k that fits. If the fine steps alone don't fit, they are thinned
    /// the same way and every coarse step is dropped.
    public func thinned(toFit slots: Int) -> (kept: [Int], dropped: [Int]) {
        let (coarse, fine) = steps
        let all = coarse + fine
        let kept: [Int]
        if all.count <= slots {
            kept = all
        } else if fine.count <= slots {
            kept = ProgressSteps.everyKth(of: coarse, fitting: slots - fine.count) + fine
        } else {
            kept = ProgressSteps.everyKth(of: fine, fitting: slots)
        }
        let keptSet = Set(kept)
        return (kept, all.filter { !keptSet.contains($0) })
    }

    /// Every k-th of `list` counting down from its last element, smallest k that
    /// leaves at most `room`; nothing when there is no room at all.
    private static func everyKth(of list: [Int], fitting room: Int) -> [Int] {
        guard room > 0, !list.isEmpty else { return [] }
        var k = 1
        while true {
            let kept = list.indices.filter { (list.count - 1 - $0) % k == 0 }.map { list[$0] }
            if kept.count <= room { return kept }
            k += 1
        }
    }

    /// Problems with the tuning, naming the key and what was expected; empty when fine.
    public func validate() -> [String] {
        switch self {
        case .regular(let step, let fineFrom, let fineStep):
            var problems: [String] = []
            if !(1...99).contains(step) { problems.append("progress_steps.step: expected 1 to 99, found \(step)") }
            if !(0...100).contains(fineFrom) {
                problems.append("progress_steps.fine_from: expected 0 to 100, found \(fineFrom)")
            }
            if !(1...99).contains(fineStep) {
                problems.append("progress_steps.fine_step: expected 1 to 99, found \(fineStep)")
            }
            return problems
        case .at(let list):
            if list.isEmpty { return ["progress_steps.at: expected at least one step, found an empty list"] }
            return list.filter { !(1...99).contains($0) }.map {
                "progress_steps.at: expected steps from 1 to 99, found \($0)"
            }
        }
    }
}
