import CycleCore
import FoundationEssentials
import Testing
@testable import CycleService

/// An event stream's reads as the local API's thread makes them: the events told since
/// the last read, idle while the stream is open and quiet, ended once the service stopped
/// it and everything told before was read.
@Suite struct EventSubscriptionTests {
    /// What happens on the runner's side between reads.
    enum Happening: Sendable, CustomStringConvertible {
        case told(ServiceEvent)
        case serviceStops

        var description: String {
            switch self {
            case .told(let event): "told \(event)"
            case .serviceStops: "the service stops"
            }
        }
    }

    static let service = ServiceSnapshot(version: "0.2.0", instanceID: "instance", homeAssistantConnected: true,
                                         updates: "events", pushesToday: 0, dailyPushLimit: 400, integrationConnected: false)
    static let washer = ServiceEvent.reminder(appliance: "washer", at: Date(timeIntervalSince1970: 0))
    static let dryer = ServiceEvent.cycleStarted(appliance: "dryer", program: nil, at: Date(timeIntervalSince1970: 60))

    /// A link whose snapshot is already known, so that each `update` tells exactly its events.
    static func link() -> ServiceLink {
        let link = ServiceLink(version: "0.2.0", instanceID: "instance")
        link.update(service: service, appliances: [], events: [])
        return link
    }

    static func perform(_ happening: Happening, on link: ServiceLink) {
        switch happening {
        case .told(let event): link.update(service: service, appliances: [], events: [event])
        case .serviceStops: link.close()
        }
    }

    static let rows: [([Happening], [EventSubscription.Read])] = [
        ([], [.idle, .idle]),
        ([.told(washer)], [.events([washer]), .idle]),
        ([.told(washer), .told(dryer)], [.events([washer, dryer]), .idle]),
        ([.serviceStops], [.ended, .ended]),
        ([.told(washer), .serviceStops], [.events([washer]), .ended, .ended]),
    ]

    @Test(arguments: rows)
    func readsSayEventsIdleOrEnded(happenings: [Happening], reads: [EventSubscription.Read]) throws {
        let link = Self.link()
        let subscription = try #require(link.subscribe())
        for happening in happenings { Self.perform(happening, on: link) }
        // Nothing arrives later: no read waits.
        #expect(reads.map { _ in subscription.next(waitingAtMost: 0) } == reads)
    }

    @Test(.timeLimit(.minutes(1))) func aWaitingReaderIsWokenByTheEventsTold() async throws {
        let link = Self.link()
        let subscription = try #require(link.subscribe())
        async let read = Task.detached { subscription.next(waitingAtMost: 600) }.value
        Self.perform(.told(Self.washer), on: link)
        #expect(await read == .events([Self.washer]))
    }

    @Test(.timeLimit(.minutes(1))) func aWaitingReaderIsWokenByTheEnd() async throws {
        let link = Self.link()
        let subscription = try #require(link.subscribe())
        async let read = Task.detached { subscription.next(waitingAtMost: 600) }.value
        link.close()
        #expect(await read == .ended)
    }

    @Test func aCancelledStreamNoLongerCountsAsOpen() throws {
        let link = Self.link()
        let subscription = try #require(link.subscribe())
        #expect(link.hasOpenStreams)
        subscription.cancel()
        #expect(!link.hasOpenStreams)
    }
}
