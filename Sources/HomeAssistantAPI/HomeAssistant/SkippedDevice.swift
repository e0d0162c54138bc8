/// A device discovery did not turn into an appliance, and why.
public struct SkippedDevice: Sendable, Equatable {
    /// HA's device id.
    public var deviceID: String
    /// The device's name as HA shows it.
    public var name: String
    /// One line saying what was expected and not found.
    public var reason: String
    /// What kind of appliance its integration says it is, when discovery got that far.
    public var kind: ApplianceKind?

    public init(deviceID: String, name: String, reason: String, kind: ApplianceKind? = nil) {
        self.deviceID = deviceID
        self.name = name
        self.reason = reason
        self.kind = kind
    }
}
