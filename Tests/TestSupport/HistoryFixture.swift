import CycleCore
import CycleHistory
import FoundationEssentials
import LocalTime

/// A small history with known answers, in a temporary directory. Local time is
/// UTC+1 throughout; t(0) is 2026-11-02 08:00Z, 09:00 local, a Monday of ISO week 45.
///
/// | id | appliance  | program          | start (local)    | ran        | outcome  | pushes | energy | first estimate |
/// |----|------------|------------------|------------------|------------|----------|--------|--------|----------------|
/// | 1  | dishwasher | eco_50           | 2026-11-02 09:00 | 2 h 14 min | finished | 12     | 0.82   | 4 min late     |
/// | 2  | washer     | Cotton, "Eco" 40 | 2026-11-03 09:00 | 45 min     | aborted  | 3      |        | 30 min late    |
/// | 3  | dishwasher | intensive_70     | 2026-11-04 09:00 | running    | open     | 1      |        |                |
/// | 4  | dishwasher | eco_50           | 2026-10-26 09:00 | 2 h 0 min  | finished | 10     | 1.10   | 6 min early    |
public struct HistoryFixture {
    public static let timeZone = LocalTimeZone.fixed(secondsFromGMT: 3_600)
    public static let now = t(3 * 86_400)

    public let files: StoreFixture
    public var path: String { files.path() }

    public init() throws {
        files = try StoreFixture()
        let store = try HistoryStore(path: files.path())
        try store.upsertAppliance(id: "dishwasher", name: "Dishwasher", at: t(-30 * 86_400))
        try store.upsertAppliance(id: "washer", name: "Washer", at: t(-30 * 86_400))
        try Self.add(store, "dishwasher", "eco_50", start: 0, minutes: 134, outcome: .finished, pushes: 12,
                     energy: (100, 100.82), estimateLate: 4)
        try Self.add(store, "washer", #"Cotton, "Eco" 40"#, start: 86_400, minutes: 45, outcome: .aborted, pushes: 3,
                     energy: nil, estimateLate: 30)
        try Self.add(store, "dishwasher", "intensive_70", start: 2 * 86_400, minutes: nil, outcome: nil, pushes: 1,
                     energy: nil, estimateLate: nil)
        try Self.add(store, "dishwasher", "eco_50", start: -7 * 86_400, minutes: 120, outcome: .finished, pushes: 10,
                     energy: (7, 8.1), estimateLate: -6)
    }

    private static func add(
        _ store: HistoryStore, _ appliance: String, _ program: String, start: Double, minutes: Double?, outcome: CycleOutcome?,
        pushes: Int, energy: (Double, Double)?, estimateLate: Double?
    ) throws {
        let id = try store.openCycle(applianceID: appliance, program: program, startedAt: t(start), source: .run)
        let end = minutes.map { t(start + $0 * 60) }
        let predicted = zip(end, estimateLate).map { $0.addingTimeInterval($1 * 60) }
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: predicted ?? t(start + 3_600),
                              lastPredictedFinish: nil, maxProgress: outcome == nil ? 40 : 100, energyStart: energy?.0)
        for index in 0..<pushes {
            _ = try store.recordPush(cycleID: id, applianceID: appliance, at: t(start + Double(index)), kind: .quiet,
                                     reason: "fixture", body: "{}", status: .sent)
        }
        if let end, let outcome {
            try store.closeCycle(id: id, endedAt: end, outcome: outcome, energyEnd: energy?.1)
        }
    }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
