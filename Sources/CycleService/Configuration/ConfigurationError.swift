/// Why a configuration can't be used: one line naming the file, the key, what was
/// expected and what was found. The command line turns it into an exit status.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file or a value in it is wrong.
        case invalid
        /// The file named does not exist or can't be read.
        case missingFile
        /// A value given on the command line (such as `--steps`) is wrong.
        case argument
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A wrong file or value.
    public static func config(_ message: String) -> ConfigurationError { ConfigurationError(.invalid, message) }

    /// A wrong value from the command line.
    public static func usage(_ message: String) -> ConfigurationError { ConfigurationError(.argument, message) }

    public var description: String { message }
}
