/// Why a poll got nothing: one line for the log (never the token), and whether the
/// token was refused, which calls for slower retries.
public struct SourceFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var isUnauthorized: Bool
    /// A subscription ended because HA said it was stopping (see ``HomeAssistantWebSocketError/saysStopping``).
    public var isStopping: Bool

    public init(_ message: String, isUnauthorized: Bool = false, isStopping: Bool = false) {
        self.message = message
        self.isUnauthorized = isUnauthorized
        self.isStopping = isStopping
    }

    public var description: String { message }
}
