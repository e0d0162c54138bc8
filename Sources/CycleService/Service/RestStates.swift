import CycleHistory
import HomeAssistantAPI

/// Which of the service's own states (`sensor.cycletrack_*`, set over HA's REST API) go
/// to HA and which are taken out of it, as a value: the poster performs its actions and
/// tells it HA's answers (docs/DECISIONS.md, "One set of entities").
///
///                    integration announced
///     posting ─────────────────────────────▶ removing(left) ──all removed or gone──▶ withdrawn
///        ▲                                          │                                    │
///        └────────── integration removed ───────────┴────────────────────────────────────┘
///
/// While posting, a state goes when it differs from what was last posted (all again once
/// HA forgot them). Once an integration announced itself nothing is posted again: the
/// states posted before (and any the service may have posted in an earlier run, named
/// in `candidates`) are removed, a 404 counting as removed, a failure kept for the next
/// publication.
struct RestStates: Equatable {
    enum Mode: Equatable {
        /// No integration: the service's states are in HA, as last posted.
        case posting(posted: [String: PostedState])
        /// An integration announced itself; these may still be in HA.
        case removing(left: Set<String>)
        /// An integration announced itself and none of the service's states is in HA.
        case withdrawn
    }

    enum Action: Equatable {
        case post(String, PostedState)
        case remove(String)
    }

    private(set) var mode: Mode

    /// From the stored record; `candidates`: every state the service may have posted before.
    init(_ record: HistoryStore.IntegrationRecord, candidates: Set<String>) {
        mode = switch record {
        case .none: .posting(posted: [:])
        case .configured(restStatesRemoved: false): candidates.isEmpty ? .withdrawn : .removing(left: candidates)
        case .configured(restStatesRemoved: true): .withdrawn
        }
    }

    /// Whether the service's states are to be in HA (no integration announced).
    var posts: Bool {
        if case .posting = mode { true } else { false }
    }

    /// What to do now, given the states the service would show (`desired`, in order).
    func actions(for desired: [(entity: String, state: PostedState)]) -> [Action] {
        switch mode {
        case .posting(let posted): desired.filter { posted[$0.entity] != $0.state }.map { .post($0.entity, $0.state) }
        case .removing(let left): left.sorted().map(Action.remove)
        case .withdrawn: []
        }
    }

    /// HA took the post.
    mutating func posted(_ entity: String, _ state: PostedState) {
        guard case .posting(var posted) = mode else { return }
        posted[entity] = state
        mode = .posting(posted: posted)
    }

    /// HA removed the state, or had none. True when it was the last one left.
    mutating func removed(_ entity: String) -> Bool {
        guard case .removing(var left) = mode else { return false }
        left.remove(entity)
        mode = left.isEmpty ? .withdrawn : .removing(left: left)
        return left.isEmpty
    }

    /// An integration announced itself: what was posted, and `candidates`, are to go.
    mutating func integrationAnnounced(candidates: Set<String>) {
        guard case .posting(let posted) = mode else { return }
        let left = candidates.union(posted.keys)
        mode = left.isEmpty ? .withdrawn : .removing(left: left)
    }

    /// The integration was removed: every state goes again.
    mutating func integrationRemoved() { mode = .posting(posted: [:]) }

    /// HA restarted and forgot the states set over its API: while posting, all go again.
    /// (While removing, a removal finds them gone: HA's 404.)
    mutating func homeAssistantForgot() {
        if case .posting = mode { mode = .posting(posted: [:]) }
    }
}
