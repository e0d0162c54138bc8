import FoundationEssentials

/// When a burst of HA's changes has ended, as a value. HA sets an appliance's entities
/// one by one, each change its own message, in quick succession (the operation state,
/// then the program, the progress ...); a half-updated appliance is not a moment worth a
/// push, and waiting longer than the burst only delays it.
///
/// A burst ends at once when HA says it sent all it wrote together (`ended(at:)`: its
/// coalesced message ended) or when every followed entity of each appliance it touched
/// has arrived; else when HA has been quiet for `quietSeconds` since its last change (an
/// HA that doesn't coalesce), and at the latest `capSeconds` after its first change (a
/// chatty appliance can't hold the others). It keeps the entities that changed, for the
/// runner to observe the appliances they belong to when it ends.
struct EventBurst: Sendable, Equatable {
    var quietSeconds: Double
    var capSeconds: Double
    private var first: Date?
    private var last: Date?
    private var complete = false
    /// The entities changed by the burst under way.
    private(set) var entities: Set<String> = []

    init(quietSeconds: Double = 0.02, capSeconds: Double = 0.25) {
        self.quietSeconds = quietSeconds
        self.capSeconds = capSeconds
    }

    /// `changed` entities arrived; `completing` says whether, with them, every followed
    /// entity of each appliance the burst touched has arrived (given the burst's entities).
    mutating func arrived(_ changed: Set<String>, at now: Date, completing: (Set<String>) -> Bool) {
        if first == nil { first = now }
        last = now
        entities.formUnion(changed)
        complete = completing(entities)
    }

    /// HA sent all it wrote together: the burst under way ends now.
    mutating func ended(at now: Date) {
        guard first != nil else { return }
        last = now
        complete = true
    }

    /// When the burst ends, if one is under way.
    var due: Date? {
        guard let first, let last else { return nil }
        if complete { return last }
        return min(last.addingTimeInterval(quietSeconds), first.addingTimeInterval(capSeconds))
    }

    /// The entities the burst changed, when it has ended at `now`; it is then taken, and
    /// the next change starts another. Nil while none has ended.
    mutating func take(at now: Date) -> Set<String>? {
        guard let due, due <= now else { return nil }
        defer { self = EventBurst(quietSeconds: quietSeconds, capSeconds: capSeconds) }
        return entities
    }
}
