import HomeAssistantAPI

/// What Home Assistant shows now, by entity, as a value: the answer of the last full read
/// (a poll, or the read after each subscription), with the events since over it. Its one
/// owner; what was last recorded of it is the store's (`HistoryStore.observationDiffers`),
/// and the two differ while a burst gathers or the store refuses writes.
///
///     following ──readStarted──▶ reading(delivered) ──read(answer)──▶ following
///                                        │ readFailed
///                                        └──────────────────────────▶ following
///
/// An event that comes while a read is under way is newer than what the read saw, or as
/// new: it stands over the read's answer (a change after it comes as an event of its own).
struct ShownStates: Sendable {
    private enum State: Sendable {
        case following
        /// A read is under way; what events changed meanwhile.
        case reading(delivered: [String: EntityState?])
    }

    private var state = State.following
    /// By entity: nil inside for an entity HA doesn't know.
    private(set) var states: [String: EntityState?] = [:]
    /// Full reads started so far (polls, and reads after subscribing).
    private(set) var reads = 0

    /// Takes states an event brought; returns the entities whose state changed.
    mutating func deliver(_ delivered: [String: EntityState?]) -> Set<String> {
        var changed: Set<String> = []
        for (entity, entityState) in delivered where states[entity] != entityState {
            if case .reading(var meanwhile) = state {
                meanwhile[entity] = .some(entityState)
                state = .reading(delivered: meanwhile)
            }
            states[entity] = .some(entityState)
            changed.insert(entity)
        }
        return changed
    }

    /// A full read starts.
    mutating func readStarted() {
        reads += 1
        state = .reading(delivered: [:])
    }

    /// The read answered `answer`; returns what HA shows now: the answer, with what events
    /// changed while it was under way over it.
    mutating func read(_ answer: [String: EntityState?]) -> [String: EntityState?] {
        var shown = answer
        if case .reading(let meanwhile) = state {
            for (entity, entityState) in meanwhile { shown.updateValue(entityState, forKey: entity) }
        }
        state = .following
        states = shown
        return shown
    }

    /// The read failed: what HA shows stays as the events left it.
    mutating func readFailed() {
        state = .following
    }
}
