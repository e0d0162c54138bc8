import FoundationEssentials
import Synchronization

/// What the runner and the local API share (docs/API.md), across threads: the latest
/// snapshots the runner made, the event streams open, and the commands waiting for the
/// runner's loop. The API's threads read and wait here; the runner writes and drains.
public final class ServiceLink: Sendable {
    /// How long after the last event stream closed an integration still counts as connected.
    public static let connectedGraceSeconds: Double = 60

    private struct State {
        var service: ServiceSnapshot?
        var appliances: [ApplianceSnapshot] = []
        var household: HouseholdSnapshot?
        var subscribers: [Int: EventSubscription] = [:]
        var nextSubscriber = 0
        var lastStreamClosed: Date?
        var commands: [PendingCommand] = []
        var waker: (@Sendable () -> Void)?
        var closed = false
    }

    public let version: String
    public let instanceID: String
    /// Event streams open at once, at most; another is refused (503).
    public let streamLimit: Int
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    public init(version: String, instanceID: String, streamLimit: Int = 4, now: @escaping @Sendable () -> Date = { Date() }) {
        self.version = version
        self.instanceID = instanceID
        self.streamLimit = streamLimit
        self.now = now
    }

    // MARK: Snapshots and events (the runner writes)

    /// The runner's latest view: each appliance whose snapshot changed and a changed
    /// service are told to every open stream after `events`.
    public func update(service: ServiceSnapshot, appliances: [ApplianceSnapshot], events: [ServiceEvent]) {
        state.withLock { state in
            var told = events
            let before = Dictionary(state.appliances.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            told += appliances.filter { before[$0.id] != $0 }.map(ServiceEvent.appliance)
            if state.service != service { told.append(.service(service)) }
            state.service = service
            state.appliances = appliances
            for subscriber in state.subscribers.values { subscriber.deliver(told) }
        }
    }

    /// The latest snapshots; nil before the runner made its first.
    public func snapshot() -> (service: ServiceSnapshot, appliances: [ApplianceSnapshot])? {
        let connected = integrationConnected()
        return state.withLock { state in
            guard var service = state.service else { return nil }
            service.integrationConnected = connected
            return (service, state.appliances)
        }
    }

    /// The household's and the people's settings in effect, with where each came from.
    public func updateHousehold(_ household: HouseholdSnapshot) {
        state.withLock { $0.household = household }
    }

    /// The latest household snapshot; nil before the runner made its first.
    public func household() -> HouseholdSnapshot? { state.withLock { $0.household } }

    // MARK: Event streams (the API opens them)

    /// A new stream, its first event the snapshot; nil when `streamLimit` are open or the service stops.
    public func subscribe() -> EventSubscription? {
        state.withLock { state in
            guard !state.closed, state.subscribers.count < streamLimit else { return nil }
            let id = state.nextSubscriber
            state.nextSubscriber += 1
            let subscription = EventSubscription(id: id, link: self)
            state.subscribers[id] = subscription
            return subscription
        }
    }

    func unsubscribe(_ id: Int) {
        let at = now()
        state.withLock { state in
            guard state.subscribers.removeValue(forKey: id) != nil else { return }
            if state.subscribers.isEmpty { state.lastStreamClosed = at }
        }
    }

    /// Whether an event stream is open now.
    public var hasOpenStreams: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// Whether an integration follows the service: a stream is open, or one closed less
    /// than `connectedGraceSeconds` ago.
    public func integrationConnected() -> Bool {
        let at = now()
        return state.withLock { state in
            if !state.subscribers.isEmpty { return true }
            guard let closed = state.lastStreamClosed else { return false }
            return at.timeIntervalSince(closed) < Self.connectedGraceSeconds
        }
    }

    /// Ends every stream and refuses new ones and new commands (the service stops).
    public func close() {
        let (subscribers, commands) = state.withLock { state in
            state.closed = true
            let taken = (Array(state.subscribers.values), state.commands)
            state.commands = []
            return taken
        }
        for subscriber in subscribers { subscriber.end() }
        for command in commands { command.finish(.refused("the service is stopping")) }
    }

    // MARK: Commands (the API submits, the runner drains)

    /// Hands `command` to the runner's loop and waits for its outcome, at most `seconds`
    /// (nil when the runner did not take it in time). Called on an API thread.
    public func submit(_ command: RunnerCommand, waitingAtMost seconds: Double = 10) -> CommandOutcome? {
        send(command).wait(seconds)
    }

    /// Hands `command` to the runner's loop without waiting: the loop takes it before it
    /// next sleeps.
    @discardableResult
    public func send(_ command: RunnerCommand) -> PendingCommand {
        let pending = PendingCommand(command)
        let (accepted, waker): (Bool, (@Sendable () -> Void)?) = state.withLock { state in
            guard !state.closed else { return (false, nil) }
            state.commands.append(pending)
            return (true, state.waker)
        }
        if !accepted { pending.finish(.refused("the service is stopping")) }
        waker?()
        return pending
    }

    /// Whether commands wait for the runner.
    public var hasCommands: Bool { state.withLock { !$0.commands.isEmpty } }

    /// The commands waiting, oldest first; the runner answers each with `finish`.
    public func takeCommands() -> [PendingCommand] {
        state.withLock { state in
            let taken = state.commands
            state.commands = []
            return taken
        }
    }

    /// What wakes the runner's loop when a command arrives.
    public func setWaker(_ waker: @escaping @Sendable () -> Void) {
        state.withLock { $0.waker = waker }
    }
}
