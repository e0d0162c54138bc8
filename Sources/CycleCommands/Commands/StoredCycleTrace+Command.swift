import CycleHistory

extension StoredCycleTrace {
    /// Cycle `cycleID` of the database at `databasePath`, opened read-only, for
    /// `replay --cycle ID`: a missing cycle or an unreadable store is a configuration error (78).
    static func load(cycleID: Int64, databasePath: String) throws(CommandError) -> StoredCycleTrace {
        do {
            let store = try HistoryStore(path: databasePath, mode: .readOnly)
            guard let trace = try load(cycleID: cycleID, from: store) else {
                throw CommandError(.config, "\(databasePath): no cycle \(cycleID); 'cycletrack query --db \(databasePath)' lists them")
            }
            return trace
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.config, "\(error)")
        }
    }
}
