import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore

/// An error that ends a command with a one-line message and an exit status.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    public var code: ExitCode
    public var message: String

    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public static func usage(_ message: String) -> CommandError { CommandError(.usage, message) }
    public static func config(_ message: String) -> CommandError { CommandError(.config, message) }

    public var description: String { message }
}

extension CommandError {
    /// A configuration error as the command line reports it: 66 for a missing file, 64
    /// for a wrong argument, else 78.
    public init(_ error: ConfigurationError) {
        let code: ExitCode = switch error.kind {
        case .missingFile: .noInput
        case .argument: .usage
        case .invalid: .config
        }
        self.init(code, error.message)
    }
}

/// Runs `body`, reporting a configuration error the command line's way.
func configured<T>(_ body: () throws(ConfigurationError) -> T) throws(CommandError) -> T {
    do { return try body() } catch { throw CommandError(error) }
}
