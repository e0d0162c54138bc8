import CycleHistory
import HomeAssistantAPI
import CycleCore

/// cycletrack's configuration (docs/REFERENCE.md, "Configuration"), read from JSON with
/// every key optional except what discovery can't supply. Defaults live here and in
/// `ApplianceSettings`.
public struct Configuration: Sendable {
    /// Where it came from: a file path, or "defaults" when no file was found.
    public var source: String
    public var homeAssistantURL: String?
    public var tokenFile: String?
    /// A CA bundle to verify HA's TLS certificate with (a self-signed HA); the system's otherwise.
    public var caFile: String?
    public var database: String?
    /// `history.keep_days`: `run` deletes ended cycles older than this many days (with
    /// their observations and pushes); nil (the default) keeps everything.
    public var keepDays: Int?
    public var pollActiveSeconds: Double = 10
    public var pollIdleSeconds: Double = 30
    public var mobileDeliveries: [String] = ["mobile_push"]
    public var dailyPushLimit: Int = 400
    public var discover: Bool = true
    /// Whether `run` keeps `sensor.cycletrack_*` entities in HA and fires its events.
    public var entities: Bool = true
    /// How `run` hears of changes: HA's WebSocket events (polling while they can't be
    /// had), or polling alone.
    public var updates: Runner.Updates = .events
    public var target: [String]?
    public var texts = Texts()
    /// Quiet hours and the people (`quiet_hours`, `presence_wait_hours`, `people`); the clock
    /// is set by whoever drives the household (`run`, `replay`, `demo`) from `$TZ`.
    public var delivery = DeliverySettings()
    public var appliances: [ApplianceConfiguration] = []
    /// The history page (docs/REFERENCE.md, "The history page"): the address it listens
    /// on, its port (0: no page), and the client addresses it answers (empty: all).
    public var httpListen = "127.0.0.1"
    public var httpPort = 8099
    public var httpAllow: [String] = []
    /// `price`: a fixed price per kWh and its currency, and an HA price entity (a dynamic
    /// tariff) every appliance follows as its `price` role unless it names its own
    /// (docs/REFERENCE.md, "Energy and cost").
    public var pricePerKWh: Double?
    public var priceCurrency: String?
    public var priceEntity: String?

    public init(source: String) {
        self.source = source
    }

    /// The configured appliance with this id, if any.
    public func appliance(_ id: String) -> ApplianceConfiguration? {
        appliances.first { $0.settings.id == id }
    }

    /// Settings for an appliance that isn't configured (discovered, or replayed without
    /// a config): the defaults, with the global target, texts and deliveries.
    public func defaultSettings(id: String, name: String? = nil) -> ApplianceSettings {
        var settings = ApplianceSettings(id: id, name: name ?? Self.readableName(id))
        settings.target = target
        settings.texts = texts
        settings.mobileDeliveries = mobileDeliveries
        settings.pricePerKWh = pricePerKWh
        settings.currency = priceCurrency
        return settings
    }

    /// `dish_washer` → "Dish washer".
    public static func readableName(_ id: String) -> String {
        let words = id.replacing("_", with: " ").replacing("-", with: " ")
        guard let first = words.first else { return id }
        return first.uppercased() + words.dropFirst()
    }
}
