/// What discovery found: appliances to track, and devices left out with the reason.
public struct DiscoveryResult: Sendable, Equatable {
    /// Devices followed (cycle appliances with an operation state), in HA's order.
    public var devices: [DiscoveredDevice]
    /// Devices left out, with why.
    public var skipped: [SkippedDevice]
    /// Why HA's entity registry wasn't read (every role then came from the fallback rules);
    /// nil when it was.
    public var registryProblem: String?

    public init(devices: [DiscoveredDevice], skipped: [SkippedDevice], registryProblem: String? = nil) {
        self.devices = devices
        self.skipped = skipped
        self.registryProblem = registryProblem
    }
}
