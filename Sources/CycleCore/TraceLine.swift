import FoundationEssentials

/// A trace that can't be replayed: what was wrong, and on which line (1-based).
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String

    /// An error on `line` (1-based), saying what was expected and what was found.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}

/// One line of a trace (docs/REFERENCE.md, "Trace format"): what HA showed for one
/// appliance's entities at one moment.
public struct TraceLine: Sendable {
    public var at: Date
    /// The states by role; a role missing from the line is unavailable.
    public var raw: [Role: String]
    /// Keys of `states` that name no role, sorted; ignored.
    public var unknownRoles: [String]
    /// `person.*` keys of `states`: the people's states at this moment.
    public var people: [String: String] = [:]
    /// The entities' units of measurement given on this line (`units`), by role; a role
    /// not given keeps the unit an earlier line gave it.
    public var units: [Role: String]
    /// `appliance`: whose entities the line shows, in a trace of several appliances; nil:
    /// the replayed appliance's (docs/examples/README.md, "Several appliances").
    public var appliance: String?

    /// A line as `run` records it.
    public init(at: Date, raw: [Role: String], unknownRoles: [String] = [], units: [Role: String] = [:]) {
        self.at = at
        self.raw = raw
        self.unknownRoles = unknownRoles
        self.units = units
    }

    /// Reads `{"at": "<ISO 8601>", "states": {"<role>": "<HA state>", ...}, "units": {"<role>": "min", ...}}`
    /// (`units` optional).
    /// Invalid JSON, a missing or invalid `at`, a missing `states` object or a state
    /// that isn't a string is a `TraceError` naming `line`.
    public static func parse(_ text: String, line: Int) throws(TraceError) -> TraceLine {
        let decoded: LineShape
        do {
            decoded = try JSONDecoder().decode(LineShape.self, from: Data(text.utf8))
        } catch {
            throw TraceError(line: line, message: "expected a JSON object {\"at\": ..., \"states\": {...}}, found invalid JSON")
        }
        guard let atValue = decoded.at else {
            throw TraceError(line: line, message: "expected \"at\" with an ISO 8601 time, found none")
        }
        guard case .string(let atText) = atValue, let at = ISOTime.parse(atText) else {
            throw TraceError(line: line, message: "expected \"at\" as an ISO 8601 time with a zone, found \(atValue.shown)")
        }
        guard let states = decoded.states else {
            throw TraceError(line: line, message: "expected a \"states\" object, found none")
        }
        var raw: [Role: String] = [:]
        var unknown: [String] = []
        var people: [String: String] = [:]
        for (key, value) in states {
            guard case .string(let state) = value else {
                throw TraceError(line: line, message: "expected states.\(key) as a string, found \(value.shown)")
            }
            if let role = Role(rawValue: key) {
                raw[role] = state
            } else if key.hasPrefix("person.") {
                people[key] = state
            } else {
                unknown.append(key)
            }
        }
        var units: [Role: String] = [:]
        for (key, value) in decoded.units ?? [:] {
            guard case .string(let unit) = value else {
                throw TraceError(line: line, message: "expected units.\(key) as a string, found \(value.shown)")
            }
            guard let role = Role(rawValue: key) else {
                throw TraceError(line: line, message: "expected units.\(key) to name a role of states, found an unknown role")
            }
            units[role] = unit
        }
        var parsed = TraceLine(at: at, raw: raw, unknownRoles: unknown.sorted(), units: units)
        parsed.people = people
        if let appliance = decoded.appliance {
            guard case .string(let id) = appliance, !id.isEmpty else {
                throw TraceError(line: line, message: "expected \"appliance\" as an appliance id, found \(appliance.shown)")
            }
            parsed.appliance = id
        }
        return parsed
    }
}

/// The shape of a trace line, loose enough to say what was wrong in it.
private struct LineShape: Decodable {
    var at: LooseValue?
    var appliance: LooseValue?
    var states: [String: LooseValue]?
    var units: [String: LooseValue]?
}

/// Any JSON value, told apart only as far as an error message needs.
private enum LooseValue: Decodable {
    case string(String)
    case other(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if container.decodeNil() {
            self = .other("null")
        } else if let flag = try? container.decode(Bool.self) {
            self = .other(String(flag))
        } else if let number = try? container.decode(Double.self) {
            self = .other("the number \(number)")
        } else if (try? container.decode([LooseValue].self)) != nil {
            self = .other("an array")
        } else {
            self = .other("an object")
        }
    }

    var shown: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .other(let description): description
        }
    }
}
