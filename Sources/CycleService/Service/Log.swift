import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One line per event, `key=value`, to stderr. `CYCLETRACK_LOG=debug|info|warning`
/// sets the level (info by default). Values with spaces or quotes are quoted. The token
/// is never passed in: nothing that logs has it.
public struct Log: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    public var level: Level
    /// Where lines go; stderr unless a test or the demo wants them elsewhere.
    public var write: @Sendable (String) -> Void

    public init(level: Level, write: @escaping @Sendable (String) -> Void = Log.standardError) {
        self.level = level
        self.write = write
    }

    /// The level from `$CYCLETRACK_LOG`; an unknown value is reported and info is used.
    public static func fromEnvironment(_ environment: [String: String]) -> Log {
        let value = environment["CYCLETRACK_LOG"]?.lowercased()
        let level: Level = switch value {
        case "debug": .debug
        case "warning", "warn": .warning
        case "error": .error
        default: .info
        }
        let log = Log(level: level)
        if let value, !["debug", "info", "warning", "warn", "error", ""].contains(value) {
            log.warning("log_level_unknown", ["value": value, "expected": "debug|info|warning|error", "using": "info"])
        }
        return log
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        StandardError.write(line + "\n")
    }

    public func debug(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.debug, event, fields) }
    public func info(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.info, event, fields) }
    public func warning(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.warning, event, fields) }
    public func error(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.error, event, fields) }

    public func enabled(_ candidate: Level) -> Bool { candidate >= level }

    private func emit(_ candidate: Level, _ event: String, _ fields: KeyValuePairs<String, String>) {
        emit(candidate, event, fields.map { ($0.key, $0.value) })
    }

    func emit(_ candidate: Level, _ event: String, _ fields: [(key: String, value: String)]) {
        guard candidate >= level else { return }
        var line = "level=\(candidate.name) event=\(event)"
        for (key, value) in fields {
            line += " \(key)=\(Self.quote(value))"
        }
        write(line)
    }

    static func quote(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 32 && $0 != "\"" && $0 != "=" && $0.value != 127 }
        if plain { return value }
        return JSONValue.quoted(value)
    }
}
