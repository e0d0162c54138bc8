import CycleCore

/// How each declared appliance setting (`ApplianceSetting.all`) is read, checked and
/// written: the configuration file and the stored overrides (`read`), a `PATCH` body
/// (`readChange`, stricter), the API's JSON (`json`), the declaration the API serves to
/// the integration (`declaration`) and the add-on's option type (`addOnType`).
extension ApplianceSetting {
    /// The value `object` gives, nil when it leaves the key out (or null): any number in
    /// range, as the configuration file and the history's rows hold them.
    func read(_ object: ObjectReader) throws(ConfigurationError) -> Value? {
        switch kind {
        case .flag: return try object.bool(key).map(Value.flag)
        case .whole(let range): return try object.int(key, in: range).map { .number(Double($0)) }
        case .number(let range, _): return try object.number(key, in: range).map(Value.number)
        case .appliance(let words): return try Self.appliance(object, key, words: words)
        }
    }

    /// An appliance id (1 to 50 of [A-Za-z0-9_-]) or one of `words`.
    private static func appliance(_ object: ObjectReader, _ key: String, words: [String]) throws(ConfigurationError) -> Value? {
        let expected = "an appliance id or " + words.map { "\"\($0)\"" }.joined(separator: " or ")
        guard let tree = object.tree(key) else { return nil }
        guard case .string(let text) = tree, words.contains(text) || ConfigurationLoader.isValidID(text) else {
            throw object.mismatch(key, expected, tree)
        }
        return .text(text)
    }

    /// The value a `PATCH` body asks for, nil when it leaves the key out: a null only
    /// where it means off, and a number on the setting's step.
    func readChange(_ object: ObjectReader) throws(ConfigurationError) -> Value? {
        guard object.has(key) else { return nil }
        guard object.tree(key) != nil else {
            guard let off else {
                throw object.invalid(key, "expects a value, found null ({\"reset\": true} goes back to the configuration)")
            }
            return off
        }
        if case .number(let range, let step?) = kind, step == 1 {
            let whole = Int(range.lowerBound.rounded(.up))...Int(range.upperBound.rounded(.down))
            return try object.int(key, in: whole).map { .number(Double($0)) }
        }
        return try read(object)
    }

    /// The value in effect as the API shows it (null: unset, or off).
    func json(_ settings: ApplianceSettings) -> JSONValue {
        Self.json(value(in: settings))
    }

    static func json(_ value: Value?) -> JSONValue {
        switch value {
        case .flag(let flag)?: .bool(flag)
        case .number(let number)?: number == number.rounded() ? NumberText.int(number).map(JSONValue.int) ?? .double(number) : .double(number)
        case .text(let text)?: .string(text)
        case nil: .null
        }
    }

    /// What the API serves of the setting (`GET /api/v1/service`, `appliance_settings`):
    /// enough for the integration to make its entity.
    var declaration: JSONObject {
        var object = JSONObject([("key", .string(key)), ("entity_key", .string(entityKey))])
        switch kind {
        case .flag:
            object["type"] = .string("flag")
        case .whole(let range):
            object["type"] = .string("number")
            object["min"] = .int(range.lowerBound)
            object["max"] = .int(range.upperBound)
            object["step"] = .int(1)
        case .number(let range, let step):
            object["type"] = .string("number")
            object["min"] = Self.json(.number(range.lowerBound))
            object["max"] = Self.json(.number(range.upperBound))
            object["step"] = step.map { Self.json(.number($0)) } ?? .null
        case .appliance(let words):
            object["type"] = .string("appliance")
            object["words"] = .array(words.map(JSONValue.string))
        }
        object["unit"] = unit.map { .string($0.rawValue) } ?? .null
        object["off"] = Self.json(off)
        object["default"] = Self.json(defaultValue)
        return object
    }

    /// The option's type in the add-on's schema (cycletrack/config.yaml), every appliance
    /// key but `id` being optional: `bool?`, `int(0,3600)?`, `float(0,1)?`.
    public var addOnType: String {
        switch kind {
        case .flag: "bool?"
        case .whole(let range): "int(\(range.lowerBound),\(range.upperBound))?"
        case .number(let range, let step):
            "\(step == 1 ? "int" : "float")(\(NumberText.plain(range.lowerBound)),\(NumberText.plain(range.upperBound)))?"
        case .appliance: "match(^[A-Za-z0-9_-]{1,50}$)?"
        }
    }
}
