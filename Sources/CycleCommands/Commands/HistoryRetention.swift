import CycleHistory
import CycleService
import CycleCore
import FoundationEssentials

/// `history.keep_days` while `run` runs: every few hours, the ended cycles older than
/// that are deleted with their observations and pushes, through a connection of its
/// own (SQLite's WAL lets it write beside the runner's).
struct HistoryRetention: Sendable {
    let database: String
    let keepDays: Int
    let log: Log
    /// How often it prunes (and once at the start).
    static let intervalSeconds: Double = 6 * 3_600

    /// Prunes once, logging what went; a failure is logged, never fatal.
    @discardableResult
    func pruneOnce(now: Date) -> PruneResult? {
        let cutoff = now.addingTimeInterval(-Double(keepDays) * 86_400)
        do {
            let store = try HistoryStore(path: database)
            let result = try store.prune(before: cutoff)
            if result.cycles > 0 || result.observations > 0 || result.pushes > 0 {
                log.info("history_pruned", ["keep_days": String(keepDays), "before": ISOTime.format(cutoff),
                                            "cycles": String(result.cycles), "observations": String(result.observations),
                                            "pushes": String(result.pushes)])
            }
            return result
        } catch {
            log.warning("history_prune_failed", ["error": error.description, "action": "trying again later"])
            return nil
        }
    }

    /// Prunes now and then every `intervalSeconds` until cancelled.
    func run() async {
        while !Task.isCancelled {
            pruneOnce(now: Date())
            do { try await Task.sleep(for: .seconds(Self.intervalSeconds)) } catch { return }
        }
    }
}
