import FoundationEssentials

/// An entity role of an appliance (docs/CYCLES.md, "Roles"). The raw value is the key used in
/// traces, the configuration's `entities` and the database.
public enum Role: String, CaseIterable, Sendable, Codable, Comparable {
    case operationState = "operation_state"
    case progress
    case finishTime = "finish_time"
    case program
    case door
    case temperature
    case power
    case energy
    // Other brands (docs/CYCLES.md, "Brands"); appended so that existing traces keep their order.
    case remainingTime = "remaining_time"
    case elapsedTime = "elapsed_time"
    case totalTime = "total_time"
    case phase
    /// The electricity price per kWh (a dynamic tariff's sensor), for the cycle's cost.
    case price
    /// How long until a delayed start begins (a duration in its unit), or when (a timestamp).
    case startIn = "start_in"
    /// The appliance's own reason for an error: an event entity's last event type and its time
    /// (LG ThinQ's `error` event; docs/CYCLES.md, "Errors").
    case errorReason = "error_reason"

    public static func < (lhs: Role, rhs: Role) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!  // every case is in allCases
    }
}

/// Home Connect's operation states, spelled as HA's enum sensor gives them.
public enum OperationState: String, CaseIterable, Sendable, Codable {
    case inactive, ready, delayedstart, run, pause, actionrequired, finished, error, aborting
}

/// What the operation state entity showed.
public enum OperationReading: Sendable, Equatable {
    case known(OperationState)
    /// `unavailable`, `unknown`, or the role missing from the observation.
    case unavailable
    /// A value outside the known states: ignored with a warning, the previous state stands.
    case unrecognised(String)
}

/// What HA showed for one appliance's entities at one moment, read into the values
/// the cycle machine works with. `raw` keeps the exact strings (for the store and
/// for replay); every derived value is nil when HA had nothing usable.
public struct Observation: Sendable, Equatable {
    public var at: Date
    /// Exactly what HA showed; a missing role means unavailable.
    public var raw: [Role: String]
    public var operation: OperationReading
    /// 0...100, rounded down; nil when not reported, not a number or out of range.
    public var progress: Int?
    /// Nil when not a valid ISO 8601 timestamp with a zone.
    public var finishTime: Date?
    /// The program key; nil for `unknown`, `unavailable` or empty.
    public var program: String?
    public var door: String?
    public var temperature: Double?
    /// The temperature entity's unit; shown as "°C" when nil.
    public var temperatureUnit: String?
    /// Watts.
    public var power: Double?
    /// kWh; converted from Wh when the entity's unit is `Wh`.
    public var energy: Double?
    /// The brand's phase (rinse, spin, drying), as HA gives it.
    public var phase: String?
    /// The electricity price per kWh, from the price entity (converted from per MWh or Wh,
    /// and from cents, as its unit says); nil when not followed or not a number.
    public var price: Double?
    /// The currency the price entity's unit names (`EUR` of `EUR/kWh`), if any.
    public var priceCurrency: String?
    /// The last error event the appliance's reason entity shows (`ErrorEvent`), whenever it fired.
    public var errorEvent: ErrorEvent?
    /// The entities' units of measurement, as given.
    public var units: [Role: String]
    /// How `raw` was read.
    public var profile: BrandProfile
    /// The people's states a trace line carried with it (`person.alice` → `home`); the
    /// household takes them before the observation (docs/REFERENCE.md, "Trace format").
    public var people: [String: String] = [:]

    /// Reads `raw` (HA state strings by role) with the entities' units of measurement,
    /// through the brand's `profile` (Home Connect unless said otherwise).
    public init(at: Date, raw: [Role: String], units: [Role: String] = [:], profile: BrandProfile = .homeConnect) {
        self.at = at
        self.raw = raw
        self.units = units
        self.profile = profile
        if let state = Observation.present(raw[.operationState]) {
            operation = profile.operation(state, raw: raw)
        } else {
            operation = .unavailable
        }
        if let value = Observation.number(raw[.progress]), (0...100).contains(value) {
            progress = Int(value.rounded(.down))
        }
        finishTime = Observation.present(raw[.finishTime]).flatMap(ISOTime.parse)
        program = Observation.present(raw[.program])
        door = Observation.present(raw[.door])
        temperature = Observation.number(raw[.temperature])
        temperatureUnit = units[.temperature].flatMap(Observation.present)
        if let watts = Observation.number(raw[.power]) {
            power = units[.power]?.trimmingASCIISpaces() == "kW" ? watts * 1000 : watts
        }
        if let value = Observation.number(raw[.energy]) {
            energy = units[.energy]?.trimmingASCIISpaces() == "Wh" ? value / 1000 : value
        }
        phase = Observation.present(raw[.phase])
        errorEvent = ErrorEvent(raw: raw[.errorReason])
        if let value = Observation.number(raw[.price]) {
            (price, priceCurrency) = Observation.perKWh(value, unit: units[.price])
        }
        readTimes()
    }

    /// The same HA states read through another profile; itself when already read so.
    public func reading(as profile: BrandProfile) -> Observation {
        guard profile != self.profile else { return self }
        var read = Observation(at: at, raw: raw, units: units, profile: profile)
        read.people = people
        return read
    }

    /// The state text, or nil for HA's "no value" states.
    static func present(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingASCIISpaces()
        switch trimmed.lowercased() {
        case "", "unavailable", "unknown", "none": return nil
        default: return trimmed
        }
    }

    /// A price in its entity's unit (`EUR/kWh`, `€/MWh`, `ct/kWh`) as per kWh, and the
    /// currency the unit names; a price without a unit is per kWh in no named currency.
    static func perKWh(_ value: Double, unit: String?) -> (Double, String?) {
        guard let unit = unit?.trimmingASCIISpaces(), let slash = unit.firstIndex(of: "/") else { return (value, nil) }
        var price = value
        switch String(unit[unit.index(after: slash)...]).trimmingASCIISpaces() {
        case "MWh": price /= 1_000
        case "Wh": price *= 1_000
        default: break
        }
        let currency = String(unit[..<slash]).trimmingASCIISpaces()
        if ["ct", "c", "cent", "cents", "p"].contains(currency) { return (price / 100, nil) }
        return (price, currency.isEmpty ? nil : currency)
    }

    static func number(_ text: String?) -> Double? {
        guard let text = present(text), let value = Double(text), NumberText.isPlausible(value) else { return nil }
        return value
    }
}
