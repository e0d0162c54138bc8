/// What discovery found: appliances to track, and devices left out with the reason.
public struct DiscoveryResult: Sendable, Equatable {
    /// Devices with an operation state, in HA's order.
    public var devices: [DiscoveredDevice]
    /// Devices that can't be tracked.
    public var skipped: [SkippedDevice]

    public init(devices: [DiscoveredDevice], skipped: [SkippedDevice]) {
        self.devices = devices
        self.skipped = skipped
    }
}
