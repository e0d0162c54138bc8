/// The discovery template's answer for one device, as rendered by HA
/// (``HomeAssistantTemplates/discovery``).
public struct DiscoveryRecord: Sendable, Equatable, Decodable {
    /// One entity of the device, with the attributes roles are recognised by.
    public struct Entity: Sendable, Equatable, Decodable {
        /// The entity id, e.g. `sensor.geschirrspuler_betriebszustand`.
        public var id: String
        /// The state string (`unknown` for an entity without a state).
        public var state: String
        /// The `options` attribute of enum sensors and selects.
        public var options: [String]?
        /// `unit_of_measurement`.
        public var unit: String?
        /// `device_class`.
        public var deviceClass: String?
        /// What the integration declares about the entity in HA's entity registry
        /// (`config/entity_registry/get_entries`); nil when the registry wasn't read.
        public var registry: RegistryEntry?

        public init(id: String, state: String = "unknown", options: [String]? = nil, unit: String? = nil,
                    deviceClass: String? = nil, registry: RegistryEntry? = nil) {
            self.id = id
            self.state = state
            self.options = options
            self.unit = unit
            self.deviceClass = deviceClass
            self.registry = registry
        }

        /// The part of the id before the dot (`sensor`, `select`, …).
        public var domain: String {
            id.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        }

        private enum CodingKeys: String, CodingKey {
            case id, state, options, unit
            case deviceClass = "dc"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            state = try container.decodeIfPresent(String.self, forKey: .state) ?? "unknown"
            // `options` is a list of strings on every entity that has it; anything else
            // (an integration's odd attribute) simply doesn't count as options.
            options = try? container.decodeIfPresent([String].self, forKey: .options)
            unit = try? container.decodeIfPresent(String.self, forKey: .unit)
            deviceClass = try? container.decodeIfPresent(String.self, forKey: .deviceClass)
            registry = nil
        }
    }

    /// What an integration declares about one of its entities in HA's entity registry:
    /// the keys roles are looked up by in ``RoleTable``. Decoded from an entry of
    /// `config/entity_registry/get_entries` (HA 2024.3 and later: its `extended_dict`).
    public struct RegistryEntry: Sendable, Equatable, Decodable {
        /// The integration that made the entity (`miele`, `lg_thinq`, …).
        public var platform: String?
        /// The integration's own name for the entity (`remaining_time`, `status`, …); nil
        /// for entities named by their device class only.
        public var translationKey: String?
        public var uniqueID: String?
        /// The device class the integration gave (the user may override `device_class`).
        public var originalDeviceClass: String?

        public init(platform: String?, translationKey: String? = nil, uniqueID: String? = nil,
                    originalDeviceClass: String? = nil) {
            self.platform = platform
            self.translationKey = translationKey
            self.uniqueID = uniqueID
            self.originalDeviceClass = originalDeviceClass
        }

        private enum CodingKeys: String, CodingKey {
            case platform
            case translationKey = "translation_key"
            case uniqueID = "unique_id"
            case originalDeviceClass = "original_device_class"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            platform = try? container.decodeIfPresent(String.self, forKey: .platform)
            translationKey = try? container.decodeIfPresent(String.self, forKey: .translationKey)
            // Unique ids are strings; a number (some integrations) is read as its text.
            uniqueID = (try? container.decodeIfPresent(String.self, forKey: .uniqueID))
                ?? (try? container.decodeIfPresent(Int.self, forKey: .uniqueID)).flatMap { $0.map(String.init) }
            originalDeviceClass = try? container.decodeIfPresent(String.self, forKey: .originalDeviceClass)
        }
    }

    /// HA's device id.
    public var id: String
    /// The integration the device was found in (`home_connect`, `miele`, …); nil in older answers.
    public var domain: String?
    public var name: String?
    public var manufacturer: String?
    public var model: String?
    public var entities: [Entity]

    public init(id: String, domain: String? = nil, name: String?, manufacturer: String? = nil, model: String? = nil,
                entities: [Entity]) {
        self.id = id
        self.domain = domain
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.entities = entities
    }
}
