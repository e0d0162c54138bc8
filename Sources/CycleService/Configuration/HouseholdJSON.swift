import CycleCore
import FoundationEssentials

/// The household's and the people's settings as JSON (docs/API.md, "The household"): read
/// from a `PATCH` body and from the history's `household_settings` rows (the same shape,
/// key by key), written for the API and `check`. Read as strictly as the configuration is.
public enum HouseholdJSON {
    /// The scope of the household's own rows in `household_settings`.
    public static let householdScope = "household"

    /// The change a `PATCH /api/v1/household/settings` body asks for; nil: `{"reset": true}`.
    public static func householdChange(_ body: [UInt8]) throws(ConfigurationError) -> DeliveryOverrides? {
        guard let object = try reading(body, allowed: DeliveryOverrides.keys) else { return nil }
        return try household(object)
    }

    /// The change a `PATCH /api/v1/people/{entity}/settings` body asks for; nil: `{"reset": true}`.
    public static func personChange(_ body: [UInt8]) throws(ConfigurationError) -> PersonOverrides? {
        guard let object = try reading(body, allowed: PersonOverrides.keys) else { return nil }
        return try person(object)
    }

    /// The overrides from their stored rows, by scope (`household` or a person entity).
    public static func overrides(stored rows: [String: [String: String]]) throws(ConfigurationError) -> DeliveryOverrides {
        var overrides = DeliveryOverrides()
        for scope in rows.keys.sorted() {
            let object = try ObjectReader(try parse(rows[scope] ?? [:]), file: "household_settings",
                                          path: scope == householdScope ? "" : scope,
                                          allowed: scope == householdScope ? DeliveryOverrides.keys : PersonOverrides.keys)
            if scope == householdScope {
                overrides.quietHours = try household(object).quietHours
            } else {
                overrides.people[scope] = try person(object)
            }
        }
        return overrides
    }

    /// The household's overrides as stored rows (key to JSON text).
    static func stored(_ overrides: DeliveryOverrides) -> [String: String] {
        overrides.quietHours.map { ["quiet_hours": quiet($0).compactJSON()] } ?? [:]
    }

    /// A person's overrides as stored rows (key to JSON text).
    static func stored(_ overrides: PersonOverrides) -> [String: String] {
        var values: [String: String] = [:]
        if let kinds = overrides.kinds { values["kinds"] = self.kinds(kinds).compactJSON() }
        if let quietHours = overrides.quietHours { values["quiet_hours"] = (quietHours.map(quiet) ?? .null).compactJSON() }
        if let language = overrides.language { values["language"] = (language.map(JSONValue.string) ?? .null).compactJSON() }
        return values
    }

    /// The household's settings in effect (`quiet_hours`).
    static func object(_ settings: DeliverySettings) -> JSONObject {
        JSONObject([("quiet_hours", settings.quietHours.map { .string($0.text) } ?? .string("off"))])
    }

    /// A person's settings in effect (`kinds`, `quiet_hours`, `language`).
    static func object(_ person: PersonSettings) -> JSONObject {
        JSONObject([
            ("kinds", kinds(person.kinds)), ("quiet_hours", person.quietHours.map(quiet) ?? .null),
            ("language", person.language.map(JSONValue.string) ?? .null),
        ])
    }

    // MARK: Reading

    private static func reading(_ body: [UInt8], allowed: [String]) throws(ConfigurationError) -> ObjectReader? {
        let tree: JSONTree
        do {
            tree = try JSONReader.parse(body)
        } catch {
            throw .config("\(SettingsJSON.bodyPlace): not JSON (line \(error.line), column \(error.column): \(error.message))")
        }
        let object = try ObjectReader(tree, file: SettingsJSON.bodyPlace, path: "", allowed: allowed + ["reset"])
        guard object.has("reset") else { return object }
        guard try object.bool("reset") == true, object.keyCount == 1 else {
            throw object.invalid("reset", "takes true alone: {\"reset\": true} drops every change made through the API here")
        }
        return nil
    }

    private static func household(_ object: ObjectReader) throws(ConfigurationError) -> DeliveryOverrides {
        try refuseEmpty(object, "quiet_hours")
        var overrides = DeliveryOverrides()
        if object.has("quiet_hours") {
            guard object.tree("quiet_hours") != nil else {
                throw object.invalid("quiet_hours", "expects a local-time window like \"22:00-07:00\" or \"off\", found null")
            }
            overrides.quietHours = try ConfigurationLoader.readQuietHours(object, "quiet_hours")
        }
        return overrides
    }

    private static func person(_ object: ObjectReader) throws(ConfigurationError) -> PersonOverrides {
        try refuseEmpty(object, "quiet_hours")
        try refuseEmpty(object, "language")
        var overrides = PersonOverrides()
        if object.has("kinds") {
            // The configuration takes one kind as a string; the API takes a list only.
            let value = object.tree("kinds") ?? .null
            guard case .array = value else { throw object.mismatch("kinds", "a list like [\"end\"]", value) }
        }
        if let names = try object.stringList("kinds") {
            var chosen: Set<CallKind> = []
            for name in names {
                guard let kind = CallKind(rawValue: name), PersonSettings.allKinds.contains(kind) else {
                    throw object.invalid("kinds", "expects start, progress, end or reminder, found \"\(name)\"")
                }
                chosen.insert(kind)
            }
            guard !chosen.isEmpty else { throw object.invalid("kinds", "expects at least one of start, progress, end, reminder, found []") }
            overrides.kinds = chosen
        }
        if object.has("quiet_hours") {
            overrides.quietHours = .some(try ConfigurationLoader.readQuietHours(object, "quiet_hours"))
        }
        if object.has("language") {
            overrides.language = .some(try ConfigurationLoader.readLanguage(object, "language"))
        }
        return overrides
    }

    /// The API takes null, not the add-on's empty text, for "none of their own".
    private static func refuseEmpty(_ object: ObjectReader, _ key: String) throws(ConfigurationError) {
        guard try object.string(key) == "" else { return }
        throw object.invalid(key, "expects a value or null, found the empty string")
    }

    private static func parse(_ values: [String: String]) throws(ConfigurationError) -> JSONTree {
        let text = "{" + values.keys.sorted().map { "\(JSONValue.quoted($0)):\(values[$0] ?? "null")" }.joined(separator: ",") + "}"
        do { return try JSONReader.parse(Array(text.utf8)) } catch {
            throw .config("household_settings: a stored value is not JSON (\(error.message))")
        }
    }

    // MARK: Writing

    private static func quiet(_ override: QuietOverride) -> JSONValue {
        switch override {
        case .off: .string("off")
        case .window(let window): .string(window.text)
        }
    }

    private static func kinds(_ kinds: Set<CallKind>) -> JSONValue {
        .array(PersonSettings.kindOrder.filter(kinds.contains).map { .string($0.rawValue) })
    }
}

extension PersonSettings {
    /// The alerting kinds in the order the API and `check` list them.
    static let kindOrder: [CallKind] = [.start, .progress, .end, .reminder]
}
