import CycleCore
import Testing
@testable import CycleHistory
@testable import CycleService
import HomeAssistantAPI

/// The poster's decisions about the service's own REST states (issue 31, item 9): posted
/// while no integration is configured, removed once one announced itself, never posted
/// again, and back when it is removed. Rows of (start, events, actions, mode).
@Suite struct RestStatesTests {
    static let idle = PostedState(state: .string("idle"), attributes: JSONObject([]))
    static let running = PostedState(state: .string("running"), attributes: JSONObject([]))
    static let washer = "sensor.cycletrack_washer"
    static let today = "sensor.cycletrack_pushes_today"

    enum Event: Sendable {
        case posted(String, PostedState)
        case removed(String)
        case announced(Set<String>)
        case integrationRemoved
        case forgot
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var record: HistoryStore.IntegrationRecord
        var candidates: Set<String> = [washer, today]
        var events: [Event] = []
        var desired: [(entity: String, state: PostedState)] = [(washer, idle), (today, idle)]
        var actions: [RestStates.Action]
        var posts: Bool
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "no integration: every state is posted", record: .none,
            actions: [.post(washer, idle), .post(today, idle)], posts: true),
        Row(name: "posted once: only what changed goes again", record: .none,
            events: [.posted(washer, idle), .posted(today, idle)], desired: [(washer, running), (today, idle)],
            actions: [.post(washer, running)], posts: true),
        Row(name: "HA forgot them: all go again", record: .none,
            events: [.posted(washer, idle), .posted(today, idle), .forgot], actions: [.post(washer, idle), .post(today, idle)], posts: true),
        Row(name: "announced: what was posted, and what an earlier run may have posted, is removed, nothing posted",
            record: .none, events: [.posted(washer, idle), .announced([today, "sensor.cycletrack_dryer"])],
            actions: [.remove("sensor.cycletrack_dryer"), .remove(today), .remove(washer)], posts: false),
        Row(name: "a removal done (or found gone): the rest is left", record: .none,
            events: [.posted(washer, idle), .announced([today]), .removed(today)], actions: [.remove(washer)], posts: false),
        Row(name: "every one removed: nothing more, whatever the household shows", record: .none,
            events: [.posted(washer, idle), .announced([]), .removed(washer)], actions: [], posts: false),
        Row(name: "started with an announcement whose removals were not all done: the candidates are removed",
            record: .configured(restStatesRemoved: false), actions: [.remove(today), .remove(washer)], posts: false),
        Row(name: "started after the removals: nothing posted, nothing removed (the integration's own states stay)",
            record: .configured(restStatesRemoved: true), actions: [], posts: false),
        Row(name: "announced again: nothing new to remove", record: .configured(restStatesRemoved: true),
            events: [.announced([washer, today])], actions: [], posts: false),
        Row(name: "HA forgetting while removing changes nothing: its 404 says so", record: .configured(restStatesRemoved: false),
            events: [.forgot], actions: [.remove(today), .remove(washer)], posts: false),
        Row(name: "a post's answer after the announcement is not taken as posted", record: .none,
            events: [.announced([washer]), .posted(today, idle)], actions: [.remove(washer)], posts: false),
        Row(name: "the integration removed: every state goes again", record: .configured(restStatesRemoved: true),
            events: [.integrationRemoved], actions: [.post(washer, idle), .post(today, idle)], posts: true),
    ]

    @Test(arguments: rows)
    func decides(_ row: Row) {
        var rest = RestStates(row.record, candidates: row.candidates)
        for event in row.events {
            switch event {
            case .posted(let entity, let state): rest.posted(entity, state)
            case .removed(let entity): _ = rest.removed(entity)
            case .announced(let candidates): rest.integrationAnnounced(candidates: candidates)
            case .integrationRemoved: rest.integrationRemoved()
            case .forgot: rest.homeAssistantForgot()
            }
        }
        #expect(rest.actions(for: rest.posts ? row.desired : []) == row.actions)
        #expect(rest.actions(for: row.desired) == row.actions, "the desired states count only while posting")
        #expect(rest.posts == row.posts)
    }

    @Test func theLastRemovalSaysSoOnce() {
        var rest = RestStates(.configured(restStatesRemoved: false), candidates: [Self.washer, Self.today])
        let first = rest.removed(Self.today)
        let last = rest.removed(Self.washer)
        #expect(!first && last)
        #expect(rest.mode == .withdrawn)
        let again = rest.removed(Self.washer)
        #expect(!again, "withdrawn: nothing left to say")
    }
}
