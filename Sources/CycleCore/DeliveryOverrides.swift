/// The household's and the people's settings changed at run time (through the local API,
/// kept in the history), over the configuration's (docs/API.md, "The household"): each
/// nil key keeps the configured value.
public struct DeliveryOverrides: Sendable, Equatable {
    /// The household's quiet hours: `.off` or a window.
    public var quietHours: QuietOverride?
    /// Each person's, by `person.*` entity.
    public var people: [String: PersonOverrides] = [:]

    /// The household's keys as the API and the store name them.
    public static let keys = ["quiet_hours"]

    public init(quietHours: QuietOverride? = nil, people: [String: PersonOverrides] = [:]) {
        self.quietHours = quietHours
        self.people = people
    }

    /// The household's keys overridden.
    public var overridden: Set<String> { quietHours == nil ? [] : ["quiet_hours"] }

    /// `base` with every overridden key replaced, each person's texts made again from
    /// their language. People the configuration doesn't have are left out.
    public func applied(to base: DeliverySettings) -> DeliverySettings {
        var settings = base
        switch quietHours {
        case nil: break
        case .off?: settings.quietHours = nil
        case .window(let window)?: settings.quietHours = window
        }
        settings.people = base.people.map { person in
            guard let own = people[person.entity], !own.isEmpty else { return person }
            var changed = own.applied(to: person)
            changed.texts = changed.resolvedTexts(over: base.texts)
            return changed
        }
        return settings
    }
}

/// One person's settings changed at run time: `kinds`, `quiet_hours`, `language`.
public struct PersonOverrides: Sendable, Equatable {
    public var kinds: Set<CallKind>?
    /// `.some(nil)`: none of their own (the appliance's, else the household's quiet hours).
    public var quietHours: QuietOverride??
    /// `.some(nil)`: no language of their own (the household's texts under their own).
    public var language: String??

    /// The keys as the API and the store name them, in this order.
    public static let keys = ["kinds", "quiet_hours", "language"]

    public init(kinds: Set<CallKind>? = nil, quietHours: QuietOverride?? = nil, language: String?? = nil) {
        self.kinds = kinds
        self.quietHours = quietHours
        self.language = language
    }

    /// No key overridden.
    public var isEmpty: Bool { overridden.isEmpty }

    /// The keys overridden, as named in `keys`.
    public var overridden: Set<String> {
        var set: Set<String> = []
        if kinds != nil { set.insert("kinds") }
        if quietHours != nil { set.insert("quiet_hours") }
        if language != nil { set.insert("language") }
        return set
    }

    /// `person` with every overridden key replaced (their texts as they were: see `DeliveryOverrides.applied`).
    public func applied(to person: PersonSettings) -> PersonSettings {
        var changed = person
        if let kinds { changed.kinds = kinds }
        if let quietHours { changed.quietHours = quietHours }
        if let language { changed.language = language }
        return changed
    }

    /// These overrides with every key `newer` sets taken from it.
    public func merging(_ newer: PersonOverrides) -> PersonOverrides {
        PersonOverrides(kinds: newer.kinds ?? kinds, quietHours: newer.quietHours ?? quietHours,
                        language: newer.language ?? language)
    }
}
