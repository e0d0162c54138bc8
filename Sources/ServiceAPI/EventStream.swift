import CycleCore
import CycleService
import FoundationEssentials
import HistoryWeb

/// `GET /api/v1/events` as Server-Sent Events (docs/API.md): the snapshot first, then
/// each change as it is told, and a `: keepalive` comment when nothing was sent for
/// `keepaliveSeconds`. Read on the connection's own thread.
final class EventStream: ResponseStream {
    private let keepaliveSeconds: Double

    private let subscription: EventSubscription
    private let first: [UInt8]
    private let state: StreamState

    /// Mutable state of one stream, only touched by its connection's thread.
    private final class StreamState: @unchecked Sendable {
        var sentFirst = false
        var quietSince = Date()
    }

    /// The longest a stream stays quiet: then a keepalive goes out.
    static let defaultKeepaliveSeconds = 15.0

    init(subscription: EventSubscription, snapshot: JSONObject, keepaliveSeconds: Double = EventStream.defaultKeepaliveSeconds) {
        self.subscription = subscription
        self.keepaliveSeconds = keepaliveSeconds
        first = Array(Self.frame("snapshot", snapshot).utf8)
        state = StreamState()
    }

    func next(waitingAtMost seconds: Double) -> StreamChunk {
        if !state.sentFirst {
            state.sentFirst = true
            state.quietSince = Date()
            return .bytes(first)
        }
        let wait = min(seconds, max(0, keepaliveSeconds - Date().timeIntervalSince(state.quietSince)))
        let events: [ServiceEvent]
        switch subscription.next(waitingAtMost: wait) {
        case .ended:
            return .end
        case .idle:
            guard Date().timeIntervalSince(state.quietSince) >= keepaliveSeconds else { return .idle }
            state.quietSince = Date()
            return .bytes(Array(": keepalive\n\n".utf8))
        case .events(let told):
            events = told
        }
        state.quietSince = Date()
        let text = events.map { event in
            let (name, data) = APIJSON.event(event)
            return Self.frame(name, data)
        }.joined()
        return .bytes(Array(text.utf8))
    }

    func finished() { subscription.cancel() }

    static func frame(_ name: String, _ data: JSONObject) -> String {
        "event: \(name)\ndata: \(data.compactJSON())\n\n"
    }
}
