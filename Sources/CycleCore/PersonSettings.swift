import FoundationEssentials

/// One person of the household (`people[]`, docs/PUSHES.md, "Presence"): an HA
/// `person.*` entity followed like an appliance's entities, what they get, when, and in
/// which language.
public struct PersonSettings: Sendable, Equatable, Codable {
    /// `person.alice`: whose state `home` says they are home.
    public var entity: String
    /// The Supernotify targets that reach them; by default the person entity itself,
    /// which Supernotify resolves to the person's devices.
    public var target: [String]
    /// The alerting kinds they get: `start`, `progress`, `end`, `reminder`.
    public var kinds: Set<CallKind> = PersonSettings.allKinds
    /// Their own quiet hours; nil: the appliance's, else the household's.
    public var quietHours: QuietOverride?
    /// Their texts (their language) for what is addressed to them; nil: the appliance's.
    /// Made from `language` and `ownTexts` by `resolvedTexts(over:)`.
    public var texts: Texts?
    /// Their language (`Texts.languages`): the built-in set under their own texts; nil: none chosen.
    public var language: String?
    /// Their own texts by configuration key, over their language's set (else the household's texts).
    public var ownTexts: [String: String] = [:]

    public static let allKinds: Set<CallKind> = [.start, .progress, .end, .reminder]

    public init(entity: String, target: [String]? = nil) {
        self.entity = entity
        self.target = target ?? [entity]
    }

    /// Their texts: their language's set (else `household`) with their own texts over it;
    /// nil (the appliance's texts) when they chose neither.
    public func resolvedTexts(over household: Texts) -> Texts? {
        guard language != nil || !ownTexts.isEmpty else { return nil }
        return (language.flatMap(Texts.builtIn) ?? household).replacing(ownTexts)
    }
}

/// How the household's alerts reach people: quiet hours and presence (docs/PUSHES.md,
/// "Quiet hours", "Presence"). Settings of the household, the same for `run` and `replay`.
/// The default (no quiet hours, no people) changes nothing.
public struct DeliverySettings: Sendable {
    /// Household-wide quiet hours; an appliance or a person may override them.
    public var quietHours: QuietHours?
    /// The people followed; empty: every call goes to the appliance's target, as without presence.
    public var people: [PersonSettings] = []
    /// How long an end notification or reminder waits for someone to come home before it
    /// is dropped (`presence_wait_hours`, default 12 h).
    public var presenceWaitSeconds: Double = 12 * 3600
    /// The local clock quiet hours are read on.
    public var clock: LocalClock = .utc
    /// The household's texts (the configuration's `texts`): what a person's own texts go
    /// over when they chose no language.
    public var texts = Texts()

    public init() {}

    /// Whether any of it is in use: nothing else changes a call when it is not.
    var isActive: Bool { quietHours != nil || !people.isEmpty }
}

/// What the tracker needs to know about the people when it decides: the settings and who
/// is home now. Handed in by the household with every event.
public struct Audience: Sendable {
    public var delivery: DeliverySettings
    /// Person entities whose state is `home`.
    public var home: Set<String>

    public init(delivery: DeliverySettings = DeliverySettings(), home: Set<String> = []) {
        self.delivery = delivery
        self.home = home
    }

    /// Whether quiet hours or people touch this appliance's calls at all: nothing changes when not.
    func applies(to settings: ApplianceSettings) -> Bool {
        delivery.isActive || settings.quietHours != nil
    }

    /// The appliance's quiet hours: its own, else the household's.
    func window(_ settings: ApplianceSettings) -> QuietHours? {
        QuietOverride.resolve(settings.quietHours, over: delivery.quietHours)
    }

    /// A person's quiet hours: their own, else the appliance's, else the household's.
    func window(_ person: PersonSettings, _ settings: ApplianceSettings) -> QuietHours? {
        QuietOverride.resolve(person.quietHours, over: window(settings))
    }

    /// Whether it is quiet for the appliance (no people) at `date`.
    func isQuiet(_ settings: ApplianceSettings, at date: Date) -> Bool {
        window(settings)?.contains(date, clock: delivery.clock) ?? false
    }

    /// Whether it is quiet at `date` for `person`.
    func isQuiet(_ person: PersonSettings, _ settings: ApplianceSettings, at date: Date) -> Bool {
        window(person, settings)?.contains(date, clock: delivery.clock) ?? false
    }

    /// Whether the clear at `date` should end the activity without an alert of its own:
    /// quiet hours for the appliance or for anyone followed.
    func clearsQuietly(_ settings: ApplianceSettings, at date: Date) -> Bool {
        isQuiet(settings, at: date) || delivery.people.contains { isQuiet($0, settings, at: date) }
    }
}

extension Audience {
    /// How a live call that may alert goes out: one call of a kind to the appliance's
    /// target, or (people disagreeing) the alerting form to some and the quiet form to the others.
    enum LivePlan: Equatable {
        case one(CallKind)
        case split(alerting: [String], quiet: [String])
    }

    /// The plan for a `start` or `progress` call at `date`. Quiet hours turn it into a quiet
    /// call, except a start the user just triggered (`triggered`: not from a delayed start).
    func livePlan(_ kind: CallKind, settings: ApplianceSettings, at date: Date, triggered: Bool) -> LivePlan {
        guard kind.isAlerting else { return .one(kind) }
        let exempt = kind == .start && triggered
        let people = delivery.people
        guard !people.isEmpty else { return .one(exempt || !isQuiet(settings, at: date) ? kind : .quiet) }
        let alerting = people.filter { $0.kinds.contains(kind) && (exempt || !isQuiet($0, settings, at: date)) }
        if alerting.count == people.count { return .one(kind) }
        if alerting.isEmpty { return .one(.quiet) }
        let others = people.filter { person in !alerting.contains { $0.entity == person.entity } }
        return .split(alerting: alerting.flatMap(\.target), quiet: others.flatMap(\.target))
    }
}
