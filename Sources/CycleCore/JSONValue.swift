/// A JSON value whose objects keep their keys in insertion order, so that the
/// Supernotify bodies cycletrack prints, stores and sends are byte-for-byte stable.
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// An ordered JSON object.
public struct JSONObject: Sendable, Equatable, Hashable {
    public private(set) var pairs: [(key: String, value: JSONValue)]

    public init(_ pairs: [(String, JSONValue)] = []) {
        self.pairs = pairs.map { (key: $0.0, value: $0.1) }
    }

    public subscript(key: String) -> JSONValue? {
        get { pairs.first { $0.key == key }?.value }
        set {
            if let index = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append((key: key, value: newValue))
            }
        }
    }

    public var keys: [String] { pairs.map(\.key) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.pairs.count == rhs.pairs.count
            && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for pair in pairs {
            hasher.combine(pair.key)
            hasher.combine(pair.value)
        }
    }
}

extension JSONValue {
    /// Compact JSON: no spaces, keys in insertion order, "/" not escaped, non-ASCII
    /// characters kept as they are (the bytes HA receives, stores and logs).
    public func compactJSON() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value):
            // JSON has no NaN or infinity.
            out += value.isFinite ? String(value) : "null"
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let object): object.write(to: &out)
        }
    }

    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out = ""
        writeString(text, to: &out)
        return out
    }

    static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension JSONObject {
    /// Compact JSON of the object, as `JSONValue.compactJSON()`.
    public func compactJSON() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        out += "{"
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out += "," }
            JSONValue.writeString(pair.key, to: &out)
            out += ":"
            pair.value.write(to: &out)
        }
        out += "}"
    }
}
