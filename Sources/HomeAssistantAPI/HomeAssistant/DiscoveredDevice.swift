import CycleCore

/// A device of one of the brands' integrations found by discovery, with the entity of each role recognised.
public struct DiscoveredDevice: Sendable, Equatable {
    /// HA's device id (32 hex characters).
    public var deviceID: String
    /// The appliance id made from the device id: `[A-Za-z0-9_-]{1,50}`, used in the tag.
    public var applianceID: String
    /// The user's name for the device, else the integration's.
    public var name: String
    public var manufacturer: String?
    public var model: String?
    /// Entity id per role; always has `.operationState`.
    public var entities: [Role: String]
    /// Unit of measurement per role, where the entity has one (`%`, `°C`, `kWh`, …).
    public var units: [Role: String]
    /// How its states are read: chosen by the integration it was found in.
    public var profile: BrandProfile
    /// What kind of appliance its integration says it is.
    public var kind: ApplianceKind
    /// Per role, whether ``RoleTable`` or the fallback rules (``RoleFallback``) found its entity.
    public var sources: [Role: RoleSource]

    public init(deviceID: String, applianceID: String, name: String, manufacturer: String? = nil,
                model: String? = nil, entities: [Role: String], units: [Role: String] = [:],
                profile: BrandProfile = .homeConnect, kind: ApplianceKind = .other,
                sources: [Role: RoleSource] = [:]) {
        self.profile = profile
        self.kind = kind
        self.sources = sources
        self.deviceID = deviceID
        self.applianceID = applianceID
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.entities = entities
        self.units = units
    }
}

/// Where discovery found a role's entity.
public enum RoleSource: String, Sendable, Equatable {
    /// By the integration's own key for the entity (``RoleTable``).
    case table
    /// By the entity's attributes, for an entity the table doesn't know (``RoleFallback``).
    case fallback
}
