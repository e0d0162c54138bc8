import FoundationEssentials
import Testing
@testable import CycleService

/// The update path as a table: given these events, in this order, expect these actions
/// and this next wake. No sockets, no clock, no sleeps.
@Suite struct UpdatePathTests {
    /// One event, at seconds after the start.
    enum Event {
        case start(Double)
        case tick(Double)
        case connected(Double)
        case connectFailed(Double, unauthorized: Bool = false)
        case lost(Double)
        case answered(Double, running: Bool = false)
        case failed(Double, unauthorized: Bool = false)
        case entitiesChanged(Double)
        case callRefusedToken(Double)
        case callAccepted
    }

    /// The event, the actions expected (`connect`, `disconnect`, `read <why>`,
    /// `log <event>` with `was=` or `after_seconds=` when the line has them), and when the
    /// path wants to be woken next (seconds, nil for never).
    typealias Row = (event: Event, actions: [String], wake: Double?)

    static let settings = UpdatePath.Settings(updates: .events, activePollSeconds: 10, idlePollSeconds: 60,
                                              retryEventsSeconds: 600)

    /// Subscribed at the start, read, and live.
    static let live: [Row] = [
        (.start(0), ["connect"], nil),
        (.connected(0), ["log events_connected was=starting", "read afterSubscribing"], nil),
        (.answered(0), [], nil),
    ]

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    static func text(_ action: UpdatePath.Action) -> String {
        switch action {
        case .connect: return "connect"
        case .disconnect: return "disconnect"
        case .read(let why): return "read \(why)"
        case .log(let line):
            let detail = ["was", "after_seconds"].compactMap { key in line[key].map { " \(key)=\($0)" } }.joined()
            return "log \(line.event)" + detail
        }
    }

    static func handle(_ event: Event, _ path: inout UpdatePath) -> [UpdatePath.Action] {
        switch event {
        case .start(let s): return path.start(at: at(s))
        case .tick(let s): return path.tick(at: at(s))
        case .connected(let s): return path.connected(entities: 2, at: at(s))
        case .connectFailed(let s, let unauthorized):
            return path.connectFailed(SourceFailure("refused", isUnauthorized: unauthorized), at: at(s))
        case .lost(let s): return path.lost(error: "connection lost", at: at(s))
        case .answered(let s, let running): return path.answered(at: at(s), cycleRunning: running)
        case .failed(let s, let unauthorized):
            return path.readFailed(SourceFailure("timed out", isUnauthorized: unauthorized), at: at(s))
        case .entitiesChanged(let s): return path.entitiesChanged(at: at(s))
        case .callRefusedToken(let s): return path.callRefusedToken(at: at(s))
        case .callAccepted:
            path.callAccepted()
            return []
        }
    }

    static func check(_ rows: [Row], settings: UpdatePath.Settings = settings,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        var path = UpdatePath(settings: settings)
        for (index, row) in rows.enumerated() {
            let actions = handle(row.event, &path).map(text)
            #expect(actions == row.actions, "row \(index + 1): \(row.event)", sourceLocation: sourceLocation)
            let wake = path.nextWake.map { $0.timeIntervalSince(at(0)) }
            #expect(wake == row.wake, "row \(index + 1): \(row.event), wake", sourceLocation: sourceLocation)
        }
    }

    // MARK: Events

    @Test func subscribesThenReadsEverythingOnceThenLivesOnEvents() {
        Self.check([
            (.start(0), ["connect"], nil),
            (.connected(0.1), ["log events_connected was=starting", "read afterSubscribing"], nil),
            (.answered(0.2), [], nil),
            (.tick(5000), [], nil),
        ])
    }

    @Test func aSubscriptionLostAfterItLivedIsMadeAgainAtOnce() {
        Self.check(Self.live + [
            (.lost(100), ["log events_lost", "connect"], nil),
            (.connected(100.1), ["log events_connected was=lost", "read afterSubscribing"], nil),
            (.answered(100.2), [], nil),
            // Lived long enough again: the next loss is a new outage, said again.
            (.lost(200), ["log events_lost", "connect"], nil),
        ])
    }

    /// Defect 1: a subscription that dies soon after it was made counts as a failure:
    /// subscribing again backs off (2, 4, 8 s), polling stands in, and it is said once.
    @Test func aSubscriptionLostSoonAfterItWasMadeBacksOffAndIsSaidOnce() {
        Self.check(Self.live + [
            (.lost(1), ["log events_lost"], 3),
            (.tick(3), ["connect"], 11),
            (.connected(3), ["log events_connected was=lost", "read afterSubscribing"], nil),
            (.answered(3), [], nil),
            (.lost(4), [], 8),
            (.tick(8), ["connect"], 14),
            (.connected(8), ["log events_connected was=lost", "read afterSubscribing"], nil),
            (.answered(8), [], nil),
            (.lost(9), [], 17),
            (.tick(10), [], 17),
            (.tick(17), ["connect"], 19),
            (.connected(17), ["log events_connected was=lost", "read afterSubscribing"], nil),
            (.answered(17), [], nil),
            // One that lasts: the backoff starts over, and the next loss is said again.
            (.lost(100), ["log events_lost", "connect"], nil),
        ])
    }

    /// Defect 4 at the value: polling goes on while an attempt to subscribe is under way.
    @Test func pollingGoesOnWhileSubscribing() {
        Self.check(Self.live + [
            (.lost(1), ["log events_lost"], 3),
            (.tick(3), ["connect"], 11),
            (.tick(11), ["read poll"], nil),
            (.answered(11, running: true), [], 21),
            (.tick(21), ["read poll"], nil),
            (.answered(21), [], 81),
            (.connected(25), ["log events_connected was=lost", "read afterSubscribing"], nil),
            (.answered(25), [], nil),
        ])
    }

    @Test func withoutAWebSocketItPollsSaysSoOnceAndTriesEventsAgainLater() {
        Self.check([
            (.start(0), ["connect"], nil),
            (.connectFailed(0), ["read probe"], nil),
            (.answered(0), ["log events_unavailable"], 60),
            (.tick(60), ["read poll"], nil),
            (.answered(60, running: true), [], 70),
            (.tick(70), ["read poll"], nil),
            (.answered(70), [], 130),
            // Subscribing first when both are due; the poll stays due.
            (.tick(600), ["connect"], 130),
            (.connectFailed(600), ["read probe"], nil),
            (.answered(600), [], 660),
            (.tick(1200), ["connect"], 660),
            (.connected(1200), ["log events_connected was=polling", "read afterSubscribing"], nil),
            (.answered(1200), [], nil),
        ])
    }

    @Test func anUnreachableHomeAssistantIsTriedWithGrowingWaitsAndSaidOnce() {
        Self.check([
            (.start(0), ["connect"], nil),
            (.connectFailed(0), ["read probe"], nil),
            (.failed(0), ["log ha_unreachable"], 2),
            (.tick(2), ["connect"], nil),
            (.connectFailed(2), ["read probe"], nil),
            (.failed(2), [], 6),
            (.tick(6), ["connect"], nil),
            (.connectFailed(6), ["read probe"], nil),
            (.failed(6), [], 14),
            (.tick(14), ["connect"], nil),
            (.connected(14), ["log events_connected was=unreachable", "read afterSubscribing"], nil),
            (.answered(14), ["log ha_back after_seconds=14"], nil),
        ])
    }

    /// Faster back after a restart: a healthy subscription lost, HA is tried every
    /// half second for two minutes, then with the usual backoff.
    @Test func afterAHealthySubscriptionIsLostHomeAssistantIsTriedQuickly() {
        Self.check(Self.live + [
            (.lost(100), ["log events_lost", "connect"], nil),
            (.connectFailed(100), ["read probe"], nil),
            (.failed(100), ["log ha_unreachable"], 100.5),
            (.tick(100.5), ["connect"], nil),
            (.connectFailed(100.5), ["read probe"], nil),
            (.failed(100.5), [], 101),
            (.tick(101), ["connect"], nil),
            (.connected(101.1), ["log events_connected was=unreachable", "read afterSubscribing"], nil),
            (.answered(101.2), ["log ha_back after_seconds=1"], nil),
        ])
        Self.check(Self.live + [
            (.lost(100), ["log events_lost", "connect"], nil),
            (.connectFailed(100), ["read probe"], nil),
            (.failed(100), ["log ha_unreachable"], 100.5),
            // Past the window (two minutes after the loss): the backoff from its start.
            (.tick(221), ["connect"], nil),
            (.connectFailed(221), ["read probe"], nil),
            (.failed(221), [], 223),
            // HA answers REST but not the WebSocket, inside the window: tried again quickly.
        ])
        Self.check(Self.live + [
            (.lost(100), ["log events_lost", "connect"], nil),
            (.connectFailed(100), ["read probe"], nil),
            (.answered(100), [], 100.5),
            (.tick(100.5), ["connect"], 160),
        ])
    }

    /// A peer that breaks the protocol on every connection while HA's REST API answers
    /// (issue 31, item 16): each attempt costs a full read, so the attempts back off,
    /// 0.5 s, 1, 2, 4 … s, instead of every 0.5 s for the two minutes (57 reads in 40 s).
    @Test func aWebSocketThatFailsEveryTimeWhileHomeAssistantAnswersIsTriedLessAndLessOften() {
        var path = UpdatePath(settings: Self.settings)
        for row in Self.live { _ = Self.handle(row.event, &path) }
        _ = Self.handle(.lost(100), &path)
        var reads = 0
        var now = 100.0
        var waits: [Double] = []
        while now < 140 {
            #expect(Self.handle(.connectFailed(now), &path).map(Self.text) == ["read probe"])
            reads += 1
            _ = Self.handle(.answered(now), &path)
            let next = (path.nextWake ?? .distantFuture).timeIntervalSince(Self.at(0))
            waits.append(next - now)
            now = next
            #expect(Self.handle(.tick(now), &path).map(Self.text).contains("connect"))
        }
        #expect(waits.prefix(5) == [0.5, 1, 2, 4, 8])
        #expect(reads <= 7, "\(reads) full reads in 40 s")
        // A subscription that lives again ends it: the next loss is tried quickly again.
        _ = Self.handle(.connected(now), &path)
        _ = Self.handle(.answered(now), &path)
        _ = Self.handle(.lost(now + 100), &path)
        _ = Self.handle(.connectFailed(now + 100), &path)
        _ = Self.handle(.answered(now + 100), &path)
        #expect(path.nextWake.map { $0.timeIntervalSince(Self.at(now + 100)) } == 0.5)
    }

    @Test func aFullReadThatFailsAfterSubscribingStartsOverAfterTheBackoff() {
        Self.check([
            (.start(0), ["connect"], nil),
            (.connected(0), ["log events_connected was=starting", "read afterSubscribing"], nil),
            (.failed(0), ["log ha_unreachable", "disconnect"], 2),
            (.tick(2), ["connect"], nil),
            (.connected(2), ["log events_connected was=unreachable", "read afterSubscribing"], nil),
            (.answered(2), ["log ha_back after_seconds=2"], nil),
        ])
    }

    @Test func newEntitiesAreTakenInByAFreshSubscription() {
        Self.check([
            (.start(0), ["connect"], nil),
            (.entitiesChanged(0), ["disconnect", "connect"], nil),
            (.connected(0), ["log events_connected was=following_more", "read afterSubscribing"], nil),
            (.answered(0), [], nil),
            (.entitiesChanged(50), ["disconnect", "connect"], nil),
            (.connectFailed(50), ["read probe"], nil),
            (.entitiesChanged(50), [], nil),
        ])
    }

    @Test func outcomesThatCameTooLateAreIgnored() {
        Self.check([
            (.start(0), ["connect"], nil),
            (.answered(0), [], nil),
            (.lost(0), [], nil),
            (.connected(0), ["log events_connected was=starting", "read afterSubscribing"], nil),
            (.connected(0), [], nil),
            (.failed(0), ["log ha_unreachable", "disconnect"], 2),
            (.connectFailed(1), [], 2),
        ])
    }

    // MARK: Polling

    @Test func pollModeReadsAtTheIntervalsAndBacksOffFromWhenAFailureEnded() {
        var settings = Self.settings
        settings.updates = .poll
        Self.check([
            (.start(0), ["read poll"], nil),
            (.answered(0), [], 60),
            (.tick(59), [], 60),
            (.tick(60), ["read poll"], nil),
            (.answered(60, running: true), [], 70),
            (.tick(70), ["read poll"], nil),
            // A request that hung 15 s: the waits count from when it ended.
            (.failed(85), ["log ha_unreachable"], 87),
            (.tick(87), ["read poll"], nil),
            (.failed(102), [], 106),
            (.tick(106), ["read poll"], nil),
            (.failed(121), [], 129),
            (.tick(129), ["read poll"], nil),
            (.answered(130), ["log ha_back after_seconds=45"], 190),
            (.tick(190), ["read poll"], nil),
            (.failed(190), ["log ha_unreachable"], 192),
        ], settings: settings)
    }

    // MARK: The token

    /// Defect 5: a refused token is said once until HA accepts it again, on any path, so
    /// a second revocation is said too.
    @Test func aRefusedTokenIsSaidOnceUntilItIsAcceptedAgain() {
        var settings = Self.settings
        settings.updates = .poll
        Self.check([
            (.start(0), ["read poll"], nil),
            (.failed(0, unauthorized: true), ["log ha_unreachable", "log ha_token_refused"], 60),
            (.tick(60), ["read poll"], nil),
            (.failed(60, unauthorized: true), [], 120),
            (.tick(120), ["read poll"], nil),
            (.answered(120), ["log ha_back after_seconds=120"], 180),
            (.callRefusedToken(130), ["log ha_token_refused"], 180),
            (.callRefusedToken(131), [], 180),
            (.callAccepted, [], 180),
            (.callRefusedToken(140), ["log ha_token_refused"], 180),
            (.tick(180), ["read poll"], nil),
            (.answered(180), [], 240),
            (.tick(240), ["read poll"], nil),
            (.failed(240, unauthorized: true), ["log ha_unreachable", "log ha_token_refused"], 300),
        ], settings: settings)
        Self.check([
            (.start(0), ["connect"], nil),
            (.connectFailed(0, unauthorized: true), ["log ha_token_refused", "read probe"], nil),
            (.failed(0, unauthorized: true), ["log ha_unreachable"], 60),
            (.tick(60), ["connect"], nil),
            (.connected(60), ["log events_connected was=unreachable", "read afterSubscribing"], nil),
            (.answered(60), ["log ha_back after_seconds=60"], nil),
            (.callRefusedToken(100), ["log ha_token_refused"], nil),
            (.lost(100), ["log events_lost", "connect"], nil),
            (.connectFailed(100, unauthorized: true), ["read probe"], nil),
            (.failed(100, unauthorized: true), ["log ha_unreachable"], 160),
            (.tick(160), ["connect"], nil),
            (.connected(160), ["log events_connected was=unreachable", "read afterSubscribing"], nil),
            (.callRefusedToken(170), ["log ha_token_refused"], nil),
        ])
    }
}
