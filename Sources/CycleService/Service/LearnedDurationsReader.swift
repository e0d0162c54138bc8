import CycleCore
import CycleHistory
import FoundationEssentials

/// Reads what an appliance's own finished cycles say about how long its next one takes
/// (`LearnedDurations`), for the appliances that report no progress of their own: smart
/// plugs (docs/CYCLES.md, "Smart plugs"). Cycles recorded by `run` only (a replay's or the
/// demo's are not the appliance's).
public enum LearnedDurationsReader {
    /// The cycles looked at, newest first: enough for the last ten of several programs.
    static let window = 200

    /// `settings` with `learned` filled in from the store's finished cycles that started
    /// before `before` (nil: any), for a plug; unchanged otherwise or with no history.
    public static func learning(_ settings: ApplianceSettings, store: HistoryStore, before: Date? = nil)
        throws(StoreError) -> ApplianceSettings {
        guard settings.profile == .plug else { return settings }
        let cycles = try store.cycles(matching: CycleFilter(
            applianceID: settings.id, until: before, outcome: .ended(CycleOutcome.finished.rawValue), limit: window,
            source: .run))
        var learned = settings
        let rests = try store.longestRests(applianceID: settings.id, limit: LearnedDurations.lastCycles)
        learned.learned = LearnedDurations(newestFirst: cycles.compactMap { cycle in
            cycle.duration.map { (program: cycle.program, seconds: $0) }
        }, rests: rests)
        return learned
    }
}
