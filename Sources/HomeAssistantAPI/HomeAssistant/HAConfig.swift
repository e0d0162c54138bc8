/// What `GET /api/config` tells about the Home Assistant instance.
public struct HAConfig: Sendable, Equatable, Decodable {
    /// HA's version, e.g. `2024.3.3`.
    public var version: String
    /// The home's name.
    public var locationName: String
    /// The IANA time zone, e.g. `Europe/Berlin`.
    public var timeZone: String?
    /// Loaded integrations (and platforms), e.g. `supernotify`, `home_connect`.
    public var components: [String]

    public init(version: String, locationName: String, timeZone: String? = nil, components: [String] = []) {
        self.version = version
        self.locationName = locationName
        self.timeZone = timeZone
        self.components = components
    }

    private enum CodingKeys: String, CodingKey {
        case version
        case locationName = "location_name"
        case timeZone = "time_zone"
        case components
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        locationName = try container.decodeIfPresent(String.self, forKey: .locationName) ?? ""
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        components = try container.decodeIfPresent([String].self, forKey: .components) ?? []
    }
}
