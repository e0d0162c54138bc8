/// An entity's state as HA reports it (the REST states template, `subscribe_entities`).
public struct EntityState: Sendable, Equatable {
    /// What the state says, with the text exactly as HA has it.
    public var value: StateValue
    /// The `unit_of_measurement` attribute.
    public var unit: String?
    /// The `device_class` attribute.
    public var deviceClass: String?
    /// An event entity's `event_type` attribute: its last event (LG ThinQ's `door_open_error`).
    public var eventType: String?

    public init(_ value: StateValue, unit: String? = nil, deviceClass: String? = nil) {
        self.value = value
        self.unit = unit
        self.deviceClass = deviceClass
    }

    /// The state from HA's text (`run`, `42`, `unavailable`, …).
    public init(state text: String, unit: String? = nil, deviceClass: String? = nil, eventType: String? = nil) {
        self.init(StateValue(text), unit: unit, deviceClass: deviceClass)
        self.eventType = eventType
    }

    /// The text the core takes for the entity's role: the state's text, and for an event
    /// entity with an event, the event type, a space and the state (its time), as the role
    /// `error_reason` reads it (`ErrorEvent`).
    public var roleText: String {
        guard let eventType, !eventType.isEmpty, value.isKnown else { return value.text }
        return eventType + " " + value.text
    }
}

/// An entity's state string as a value: HA's two states of not knowing as cases, a
/// number when the text is one, and always the text exactly as HA wrote it (the core,
/// the traces and the store take the text, so nothing is lost or reformatted).
public enum StateValue: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `unavailable`: the integration can't reach the device (or HA just started).
    case unavailable
    /// `unknown`: the entity exists and has no state yet.
    case unknown
    /// A finite number (`42`, `-1.5`, `0.25`), with the text it was read from.
    case number(Double, text: String)
    /// Anything else: `run`, `home`, an ISO time, an empty string.
    case text(String)

    public init(_ text: String) {
        switch text {
        case "unavailable": self = .unavailable
        case "unknown": self = .unknown
        default:
            // Only plain decimal notation: `nan`, `inf` and hex are texts for HA too.
            if text.utf8.allSatisfy(Self.isNumberByte), let number = Double(text), number.isFinite {
                self = .number(number, text: text)
            } else {
                self = .text(text)
            }
        }
    }

    /// The state string exactly as HA has it.
    public var text: String {
        switch self {
        case .unavailable: "unavailable"
        case .unknown: "unknown"
        case .number(_, let text), .text(let text): text
        }
    }

    /// The number, when the state is one.
    public var number: Double? {
        if case .number(let number, _) = self { return number }
        return nil
    }

    /// False for `unavailable` and `unknown`.
    public var isKnown: Bool {
        switch self {
        case .unavailable, .unknown: false
        case .number, .text: true
        }
    }

    public var description: String { text }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }
}
