import CycleHistory
import CycleCore
import FoundationEssentials

/// The finish-time correction replayed over stored cycles, leave-one-out: each finished
/// cycle's first estimate is corrected from every *other* finished cycle of the same
/// appliance and program that `stats` reads, with the rule the service applies
/// (`FinishCorrection`), so a cycle never corrects itself. Gives each cycle's estimate
/// error without and with the correction, to its display group.
///
/// The service learns from every finished cycle before the one running; leave-one-out
/// uses the later ones too, so that the first cycles of a program are measured as well.
struct CorrectedEstimates {
    /// One finished cycle with a first estimate.
    private struct Entry {
        var group: String?
        var error: Double
        var lead: Double?
    }

    private var entries: [String: [Entry]] = [:]
    private var unlearnable: [Entry] = []

    /// Keeps the cycle if it finished with a first estimate; `group` is its display key.
    mutating func add(_ cycle: CycleFigures, group: String?) {
        guard cycle.finished, let error = cycle.estimateError else { return }
        let entry = Entry(group: group, error: error, lead: cycle.firstEstimateLead)
        guard let applianceID = cycle.applianceID, let program = cycle.program else {
            unlearnable.append(entry)
            return
        }
        entries[applianceID + "\u{1F}" + program, default: []].append(entry)
    }

    /// Per display group, the estimate errors (seconds) without and with the correction.
    func errors() -> [String?: (plain: [Double], corrected: [Double])] {
        var result: [String?: (plain: [Double], corrected: [Double])] = [:]
        for entry in unlearnable {
            result[entry.group, default: ([], [])].plain.append(entry.error)
            result[entry.group, default: ([], [])].corrected.append(entry.error)
        }
        for list in entries.values {
            let sorted = list.map(\.error).sorted()
            for entry in list {
                var corrected = entry.error
                if let learned = Self.medianWithout(entry.error, sorted: sorted) {
                    // The first estimate, corrected as the service corrects it when it is first seen.
                    let first = Date(timeIntervalSince1970: 0)
                    let seen = first.addingTimeInterval(-max(0, entry.lead ?? 0))
                    let shown = FinishCorrection.shown(reported: first, firstReported: first, learned: learned, at: seen)
                    corrected = entry.error - shown.timeIntervalSince(first)
                }
                result[entry.group, default: ([], [])].plain.append(entry.error)
                result[entry.group, default: ([], [])].corrected.append(corrected)
            }
        }
        return result
    }

    /// `FinishCorrection.learned` over `sorted` with one `value` taken out, without
    /// copying: nil with fewer than `minimumCycles` left.
    static func medianWithout(_ value: Double, sorted: [Double]) -> Double? {
        let count = sorted.count - 1
        guard count >= FinishCorrection.minimumCycles, let removed = sorted.firstIndex(of: value) else { return nil }
        func element(_ index: Int) -> Double { index < removed ? sorted[index] : sorted[index + 1] }
        let middle = count / 2
        return count % 2 == 1 ? element(middle) : (element(middle - 1) + element(middle)) / 2
    }
}
