/// An entity's state as the states template reports it.
public struct EntityState: Sendable, Equatable {
    /// The state string exactly as HA has it (`run`, `42`, `unavailable`, …).
    public var state: String
    /// The `unit_of_measurement` attribute.
    public var unit: String?
    /// The `device_class` attribute.
    public var deviceClass: String?

    public init(state: String, unit: String? = nil, deviceClass: String? = nil) {
        self.state = state
        self.unit = unit
        self.deviceClass = deviceClass
    }
}
