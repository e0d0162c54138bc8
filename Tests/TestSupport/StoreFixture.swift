import CycleHistory
import Foundation

/// A temporary directory for one test's database files, removed when released.
public final class StoreFixture {
    public let directory: String

    public init() throws {
        directory = NSTemporaryDirectory() + "cycletrack-store-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    public func path(_ name: String = "history.sqlite") -> String { directory + "/" + name }

    /// A fresh read-write store with one appliance.
    public func store(_ name: String = "history.sqlite", appliance: String = "dishwasher") throws -> HistoryStore {
        let store = try HistoryStore(path: path(name))
        try store.upsertAppliance(id: appliance, name: "Dishwasher", at: t(0))
        return store
    }

    /// The bytes of a file, to show it was left untouched.
    public func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The files in the directory.
    public func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }
}

/// A fixed moment plus `seconds`: 2026-11-02T08:00:00Z + seconds.
public func t(_ seconds: Double) -> Date {
    Date(timeIntervalSince1970: 1_793_606_400 + seconds)
}
