import FoundationEssentials
import Testing
@testable import CycleService

/// HA restarting soon after the service subscribed, as a table (issue 18: back within
/// 2 s of HA answering): a subscription HA closed saying it was stopping is made again at
/// once and HA tried every 0.5 s, even when it was younger than `healthySeconds`; once
/// per healthy subscription, so a peer that closes every subscription still backs off.
@Suite struct UpdatePathStoppingTests {
    /// An event of ``UpdatePathTests``, or a loss after HA said it was stopping.
    enum Step {
        case event(UpdatePathTests.Event)
        case stopping(Double)
    }

    typealias Row = (step: Step, actions: [String], wake: Double?)

    static func check(_ rows: [Row], sourceLocation: SourceLocation = #_sourceLocation) {
        var path = UpdatePath(settings: UpdatePathTests.settings)
        for (index, row) in rows.enumerated() {
            let actions: [UpdatePath.Action]
            switch row.step {
            case .event(let event): actions = UpdatePathTests.handle(event, &path)
            case .stopping(let s): actions = path.lost(error: "closed by the server (code 1000)", at: UpdatePathTests.at(s), stopping: true)
            }
            #expect(actions.map(UpdatePathTests.text) == row.actions, "row \(index + 1): \(row.step)", sourceLocation: sourceLocation)
            let wake = path.nextWake.map { $0.timeIntervalSince(UpdatePathTests.at(0)) }
            #expect(wake == row.wake, "row \(index + 1): \(row.step), wake", sourceLocation: sourceLocation)
        }
    }

    static let live: [Row] = UpdatePathTests.live.map { (.event($0.event), $0.actions, $0.wake) }

    @Test func aYoungSubscriptionHomeAssistantClosedWhileStoppingIsMadeAgainAtOnce() {
        Self.check(Self.live + [
            (.stopping(10), ["log events_lost", "connect"], nil),
            // HA is down: the attempt fails, the probe too; tried again in 0.5 s, not 2 s.
            (.event(.connectFailed(10)), ["read probe"], nil),
            (.event(.failed(11)), ["log ha_unreachable"], 11.5),
            (.event(.tick(11.5)), ["connect"], nil),
            (.event(.connected(12)), ["log events_connected was=unreachable", "read afterSubscribing"], nil),
            (.event(.answered(12)), ["log ha_back after_seconds=1"], nil),
        ])
    }

    @Test func aSecondYoungStopBeforeOneLivedBacksOff() {
        Self.check(Self.live + [
            (.stopping(10), ["log events_lost", "connect"], nil),
            (.event(.connected(10.1)), ["log events_connected was=lost", "read afterSubscribing"], nil),
            (.event(.answered(10.2)), [], nil),
            // Young again: a failure now, backed off (2 s) and polled meanwhile, said once.
            (.stopping(20), [], 22),
            (.event(.tick(22)), ["connect"], 30),
            (.event(.connected(22)), ["log events_connected was=lost", "read afterSubscribing"], nil),
            (.event(.answered(22)), [], nil),
            // One that lived: lost at once again, and the next young stop is taken as a restart.
            (.stopping(60), ["log events_lost", "connect"], nil),
            (.event(.connected(60.1)), ["log events_connected was=lost", "read afterSubscribing"], nil),
            (.event(.answered(60.2)), [], nil),
            (.stopping(70), ["connect"], nil),
        ])
    }

    @Test func aYoungLossWithoutStoppingStillBacksOff() {
        Self.check(Self.live + [
            (.event(.lost(10)), ["log events_lost"], 12),
        ])
    }
}
