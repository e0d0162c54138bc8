import FoundationEssentials

/// Which kind of source an appliance's entities are (docs/CYCLES.md, "Brands"): how its
/// raw operation state strings map onto the core's `OperationState` vocabulary, and how
/// its times become a finish time and a progress. The raw value is the configuration's
/// `profile` key. Observations keep the raw HA strings; the profile is applied each time
/// one is read, so `replay` reads a trace exactly as `run` read the live states.
public enum BrandProfile: String, CaseIterable, Sendable, Codable {
    case homeConnect = "home_connect"
    case miele
    case lgThinQ = "lg_thinq"
    case smartThings = "smartthings"
    case whirlpool
    case electrolux
    /// A power-metering smart plug: no state entity, the cycle is read from the power
    /// (`PowerCycleDetector`).
    case plug

    /// The Home Assistant integration whose entities this profile reads (`integration_entities`);
    /// nil for a plug, which can be any integration's power sensor.
    public var domain: String? {
        switch self {
        case .homeConnect: "home_connect"
        case .miele: "miele"
        case .lgThinQ: "lg_thinq"
        case .smartThings: "smartthings"
        case .whirlpool: "whirlpool"
        case .electrolux: "electrolux_status"
        case .plug: nil
        }
    }

    /// The profile for an HA integration domain; nil for a domain no profile reads.
    public init?(domain: String) {
        guard let found = BrandProfile.allCases.first(where: { $0.domain == domain }) else { return nil }
        self = found
    }

    /// What the operation state entity's text means, given the whole observation (a
    /// SmartThings `job_state` in `phase` refines its `machine_state`). `state` is
    /// already trimmed and never one of HA's "no value" states. Case, spaces and
    /// underscores don't matter: Electrolux shows `END_OF_CYCLE` as "End Of Cycle".
    func operation(_ state: String, raw: [Role: String]) -> OperationReading {
        let key = BrandProfile.stateKey(state)
        let mapped: OperationState?? = switch self {
        case .homeConnect, .plug: OperationState(rawValue: key).map { known -> OperationState? in known }
        case .miele: BrandProfile.mieleStates[key]
        case .lgThinQ: BrandProfile.lgThinQStates[key]
        case .smartThings: smartThings(key, phase: Observation.present(raw[.phase])?.lowercased())
        case .whirlpool: BrandProfile.whirlpoolStates[key]
        case .electrolux: BrandProfile.electroluxStates[key]
        }
        switch mapped {
        case .some(.some(let known)): return .known(known)
        case .some(.none): return .unavailable
        case .none: return .unrecognised(state)
        }
    }

    /// `state` lower-cased, with runs of spaces, hyphens and underscores as one underscore:
    /// "End Of Cycle", "END_OF_CYCLE" and "end_of_cycle" are the same key.
    public static func stateKey(_ state: String) -> String {
        var key = ""
        var gap = false
        for character in state.lowercased() {
            if character == " " || character == "_" || character == "-" {
                gap = !key.isEmpty
                continue
            }
            if gap { key.append("_") }
            gap = false
            key.append(character)
        }
        return key
    }

    /// Whether the brand says when a cycle has ended well (Miele `program_ended`, LG ThinQ
    /// `end`, Whirlpool `complete`, Electrolux "End Of Cycle"). For these a cycle that goes
    /// from running to ready, standby or off without it was cancelled: it ends aborted.
    /// Home Connect, SmartThings (no such state) and plugs end finished on ready or off.
    var saysWhenFinished: Bool {
        switch self {
        case .miele, .lgThinQ, .whirlpool, .electrolux: true
        case .homeConnect, .smartThings, .plug: false
        }
    }

    // MARK: The maps (nil: the brand's own "no value", e.g. not connected)

    /// homeassistant/components/miele/const.py, `STATE_STATUS_TAGS` (the status sensor's
    /// options); `running` is the older integration's spelling of `in_use`.
    static let mieleStates: [String: OperationState?] = [
        "in_use": .run, "running": .run, "autocleaning": .run,
        "pause": .pause,
        "rinse_hold": .actionrequired,
        "programmed": .delayedstart, "waiting_to_start": .delayedstart,
        "program_ended": .finished,
        "failure": .error,
        "program_interrupted": .aborting,
        "on": .ready, "idle": .ready,
        "off": .inactive, "reserved": .inactive,
        "superfreezing": .inactive, "supercooling": .inactive, "superheating": .inactive,
        "supercooling_superfreezing": .inactive,
        "service": nil, "not_connected": nil,
    ]

    /// homeassistant/components/lg_thinq (sensor.py, `current_state`; the values come from
    /// thinqconnect's run states, lower-cased by the integration). Every washing, drying
    /// and cooling step counts as running.
    static let lgThinQStates: [String: OperationState?] = [
        "detecting": .run, "running": .run, "rinsing": .run, "spinning": .run, "drying": .run,
        "cooling": .run, "cooldown": .run, "steam_softening": .run, "refreshing": .run, "prewash": .run,
        "washing": .run, "soaking": .run, "rinse_hold": .actionrequired, "reserved": .delayedstart,
        "pause": .pause, "end": .finished, "error": .error, "firmware": nil,
        "power_off": .inactive, "initial": .ready, "sleep": .inactive, "standby": .ready,
    ]

    /// homeassistant/components/whirlpool/sensor.py, `WASHER_STATE_OPTIONS` and
    /// `DRYER_STATE_OPTIONS`: the machine states, and `cycle_*` while the main cycle runs.
    static let whirlpoolStates: [String: OperationState?] = [
        "running_maincycle": .run, "running_postcycle": .run,
        "cycle_filling": .run, "cycle_rinsing": .run, "cycle_sensing": .run, "cycle_soaking": .run,
        "cycle_spinning": .run, "cycle_washing": .run,
        "pause": .pause, "smart_grid_pause": .pause,
        "delay_countdown": .delayedstart, "delay_paused": .delayedstart, "smart_delay": .delayedstart,
        "complete": .finished,
        "exception": .error, "hard_stop_or_error": .error, "power_failure": .error,
        "cancelled": .aborting,
        "standby": .ready, "setting": .ready, "system_initialize": .ready,
        "service_diagnostic_mode": nil, "factory_diagnostic_mode": nil, "life_test": nil,
        "customer_focus_mode": nil, "demo_mode": nil,
    ]

    /// albaintor/homeassistant_electrolux_status, custom_components/electrolux_status
    /// (`applianceState`, catalog_core.py; a plain string sensor whose value sensor.py,
    /// `native_value`, shows title-cased with spaces: "End Of Cycle"). Keys as `stateKey` makes them.
    public static let electroluxStates: [String: OperationState?] = [
        "running": .run, "paused": .pause, "delayed_start": .delayedstart,
        "end_of_cycle": .finished, "alarm": .error,
        "ready_to_start": .ready, "idle": .ready, "off": .inactive,
    ]

    /// homeassistant/components/smartthings/sensor.py: `machine_state` has the options
    /// `WASHER_OPTIONS` (pause, run, stop), for washers, dryers and dishwashers alike. It
    /// never says "finished": `stop` is read as `ready`, which ends a running cycle as
    /// finished and starts nothing (the Home Connect `ready`-after-`run` rule). A `job_state`
    /// of `delay_wash` while `run` is a delayed start.
    private func smartThings(_ state: String, phase: String?) -> OperationState?? {
        switch state {
        case "run": phase == "delay_wash" ? .some(.delayedstart) : .some(.run)
        case "pause": .some(.pause)
        case "stop": .some(.ready)
        default: .none
        }
    }
}
