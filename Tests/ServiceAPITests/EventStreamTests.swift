import CycleCore
import FoundationEssentials
import Testing
@testable import CycleService
@testable import HistoryWeb
@testable import ServiceAPI

/// The event stream's chunks as the server's connection thread reads them: the snapshot,
/// keepalives while nothing happens, the events told, the end when the service stops.
@Suite struct EventStreamTests {
    @Test func snapshotThenKeepalivesThenEventsThenTheEnd() throws {
        let link = ServiceLink(version: "0.2.0", instanceID: "instance")
        let subscription = try #require(link.subscribe())
        #expect(link.hasOpenStreams && link.integrationConnected())
        let stream = EventStream(subscription: subscription, snapshot: JSONObject([("appliances", .array([]))]), keepaliveSeconds: 0.05)
        #expect(stream.next(waitingAtMost: 1) == .bytes(Array("event: snapshot\ndata: {\"appliances\":[]}\n\n".utf8)))
        var chunk = StreamChunk.idle
        while chunk == .idle { chunk = stream.next(waitingAtMost: 1) }
        #expect(chunk == .bytes(Array(": keepalive\n\n".utf8)))
        let service = ServiceSnapshot(version: "0.2.0", instanceID: "instance", homeAssistantConnected: true, updates: "events",
                                      pushesToday: 3, dailyPushLimit: 400, integrationConnected: false)
        link.update(service: service, appliances: [], events: [.reminder(appliance: "washer", at: Date(timeIntervalSince1970: 0))])
        let told = stream.next(waitingAtMost: 1)
        #expect(told == .bytes(Array(("event: reminder\ndata: {\"appliance\":\"washer\",\"at\":\"1970-01-01T00:00:00Z\"}\n\n"
            + "event: service\ndata: {\"version\":\"0.2.0\",\"instance_id\":\"instance\",\"home_assistant\":{\"connected\":true,"
            + "\"updates\":\"events\"},\"pushes_today\":3,\"daily_push_limit\":400,\"pushes_left_today\":397,"
            + "\"integration_connected\":false,\"appliance_settings\":\(SettingsJSON.declarations.compactJSON())}\n\n").utf8)))
        link.update(service: service, appliances: [], events: [])
        #expect(link.subscribe() != nil, "a second stream may open")
        link.close()
        while chunk != .end { chunk = stream.next(waitingAtMost: 1) }
        stream.finished()
        #expect(link.subscribe() == nil, "no stream opens once the service stops")
    }

    /// libmicrohttpd 1.0 (Debian 13) holds a stream to the server's idle timeout whatever the
    /// stream's own setting: it must outlast the quiet between keepalives, with room to spare.
    /// (On that library, end to end: test_quiet_stream.py in the integration's tests.)
    @Test func theServersIdleTimeoutOutlastsTheQuietBetweenKeepalives() {
        let settings = HistoryServer.Settings(listen: "127.0.0.1", port: 0)
        #expect(Double(settings.timeoutSeconds) >= 2 * EventStream.defaultKeepaliveSeconds)
    }

    @Test func theStreamLimitHolds() throws {
        let link = ServiceLink(version: "0.2.0", instanceID: "instance", streamLimit: 2)
        let first = try #require(link.subscribe())
        #expect(link.subscribe() != nil)
        #expect(link.subscribe() == nil)
        first.cancel()
        #expect(link.subscribe() != nil)
    }
}
