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

    /// What the correction learns per.
    private struct Program: Hashable {
        var applianceID: String
        var program: String
    }

    /// The cycles of each appliance and program, in the order first seen.
    private var buckets: [[Entry]] = []
    private var bucketOf: [Program: Int] = [:]
    /// The last bucket used: consecutive rows are often of the same program.
    private var last: (program: Program, bucket: Int)?
    private var unlearnable: [Entry] = []

    /// Keeps the cycle if it finished with a first estimate; `group` is its display key.
    mutating func add(_ cycle: CycleFigures, group: String?) {
        guard cycle.finished, let error = cycle.estimateError else { return }
        let entry = Entry(group: group, error: error, lead: cycle.firstEstimateLead)
        guard let applianceID = cycle.applianceID, let program = cycle.program else {
            unlearnable.append(entry)
            return
        }
        let key = Program(applianceID: applianceID, program: program)
        let bucket: Int
        if let last, last.program == key {
            bucket = last.bucket
        } else if let known = bucketOf[key] {
            bucket = known
        } else {
            bucket = buckets.count
            buckets.append([])
            bucketOf[key] = bucket
        }
        last = (key, bucket)
        buckets[bucket].append(entry)
    }

    /// Hands `visit` the kept cycles' estimate errors (seconds) without and with the
    /// correction, a run of cycles of the same display group at a time.
    func forEachGroup(_ visit: (_ group: String?, _ plain: [Double], _ corrected: [Double]) -> Void) {
        Self.runs(of: unlearnable, corrected: unlearnable.map(\.error), visit)
        for list in buckets {
            let sorted = list.map(\.error).sorted()
            let corrected = list.map { entry -> Double in
                guard let learned = Self.medianWithout(entry.error, sorted: sorted) else { return entry.error }
                // The first estimate, corrected as the service corrects it when it is first seen.
                let first = Date(timeIntervalSince1970: 0)
                let seen = first.addingTimeInterval(-max(0, entry.lead ?? 0))
                let shown = FinishCorrection.shown(reported: first, firstReported: first, learned: learned, at: seen)
                return entry.error - shown.timeIntervalSince(first)
            }
            Self.runs(of: list, corrected: corrected, visit)
        }
    }

    /// Cuts `entries` into runs of the same display group (all of them, unless by week).
    private static func runs(of entries: [Entry], corrected: [Double],
                             _ visit: (_ group: String?, _ plain: [Double], _ corrected: [Double]) -> Void) {
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count, entries[end].group == entries[start].group { end += 1 }
            visit(entries[start].group, entries[start..<end].map(\.error), Array(corrected[start..<end]))
            start = end
        }
    }

    /// `FinishCorrection.learned` over `sorted` with one `value` taken out, without
    /// copying: nil with fewer than `minimumCycles` left.
    static func medianWithout(_ value: Double, sorted: [Double]) -> Double? {
        let count = sorted.count - 1
        guard count >= FinishCorrection.minimumCycles else { return nil }
        // Binary search: a linear one made `stats` quadratic in a program's cycles.
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        guard low < sorted.count, sorted[low] == value else { return nil }
        let removed = low
        func element(_ index: Int) -> Double { index < removed ? sorted[index] : sorted[index + 1] }
        let middle = count / 2
        return count % 2 == 1 ? element(middle) : (element(middle - 1) + element(middle)) / 2
    }
}
