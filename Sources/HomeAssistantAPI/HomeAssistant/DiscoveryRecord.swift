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

        public init(id: String, state: String = "unknown", options: [String]? = nil, unit: String? = nil,
                    deviceClass: String? = nil) {
            self.id = id
            self.state = state
            self.options = options
            self.unit = unit
            self.deviceClass = deviceClass
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
