/// What happened to one service call: recorded as is (pushes table), never thrown.
public struct ServiceCallOutcome: Sendable, Equatable {
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// Why the call failed (transport failure or non-2xx status); nil on success.
    public var error: HomeAssistantError?
    /// Milliseconds from sending the request to having its outcome.
    public var latencyMs: Double

    public init(status: Int?, error: HomeAssistantError?, latencyMs: Double) {
        self.status = status
        self.error = error
        self.latencyMs = latencyMs
    }

    /// Whether HA accepted the call (2xx).
    public var succeeded: Bool { error == nil }
}
