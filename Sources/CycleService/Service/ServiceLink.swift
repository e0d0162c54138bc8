import CycleCore
import Dispatch
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

/// A command from the local API for the runner.
public enum RunnerCommand: Sendable, Equatable {
    /// Change one appliance's settings: the given keys, or back to the configuration.
    case changeSettings(applianceID: String, SettingsChange)
    /// End one appliance's Live Activity now.
    case endActivity(applianceID: String)
    /// Change the household's quiet hours or one person's settings (docs/API.md, "The household").
    case changeDelivery(DeliveryChange)
    /// A Home Assistant integration announced itself (true) or was removed (false)
    /// (docs/API.md, "The integration").
    case integration(configured: Bool)
}

/// A change of the household's or a person's settings through the API; nil: every change
/// of that scope dropped, the configuration's settings again.
public enum DeliveryChange: Sendable, Equatable {
    /// The household's keys (`quietHours`; `people` unused).
    case household(DeliveryOverrides?)
    /// One person's keys, by `person.*` entity.
    case person(String, PersonOverrides?)
}

/// A change of settings through the API.
public enum SettingsChange: Sendable, Equatable {
    /// These keys, over what was changed before.
    case set(ApplianceOverrides)
    /// Every change dropped: the configuration's settings again.
    case reset
}

/// How the runner answered a command.
public enum CommandOutcome: Sendable, Equatable {
    /// Done: the appliance as it is now.
    case done(ApplianceSnapshot)
    /// A household change done: the household as it is now.
    case household(HouseholdSnapshot)
    /// The integration recorded as configured or not; when configured, none of the
    /// service's REST states is left in HA.
    case integration(configured: Bool)
    case unknownAppliance
    /// A person the configuration's `people` doesn't have.
    case unknownPerson
    /// `endActivity` for an appliance without a Live Activity showing.
    case noActivity
    /// Not done: the store refused, or the service is stopping (the text says).
    case refused(String)
}

/// A command waiting for the runner, with its outcome once there.
public final class PendingCommand: Sendable {
    public let command: RunnerCommand
    private let outcome = Mutex<CommandOutcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ command: RunnerCommand) {
        self.command = command
    }

    /// Answers the command (once; a second answer is ignored).
    public func finish(_ outcome: CommandOutcome) {
        let first = self.outcome.withLock { stored in
            guard stored == nil else { return false }
            stored = outcome
            return true
        }
        if first { done.signal() }
    }

    /// The outcome, waiting at most `seconds` for it; nil when none came in time.
    public func wait(_ seconds: Double) -> CommandOutcome? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return outcome.withLock { $0 }
    }
}

/// One open event stream: the events told to it, waiting for its reader.
public final class EventSubscription: Sendable {
    let id: Int
    private let link: ServiceLink
    private let queue = Mutex<(events: [ServiceEvent], ended: Bool)>(([], false))
    private let arrived = DispatchSemaphore(value: 0)

    init(id: Int, link: ServiceLink) {
        self.id = id
        self.link = link
    }

    func deliver(_ events: [ServiceEvent]) {
        guard !events.isEmpty else { return }
        queue.withLock { $0.events += events }
        arrived.signal()
    }

    func end() {
        queue.withLock { $0.ended = true }
        arrived.signal()
    }

    /// The events told since the last call, waiting at most `seconds` for one; nil once ended.
    public func next(waitingAtMost seconds: Double) -> [ServiceEvent]? {
        if let taken = take() { return taken.isEmpty ? nil : taken }
        _ = arrived.wait(timeout: .now() + seconds)
        return take() ?? []
    }

    /// The waiting events; [] when ended with none left; nil when none wait yet.
    private func take() -> [ServiceEvent]? {
        queue.withLock { queue in
            if !queue.events.isEmpty {
                let events = queue.events
                queue.events = []
                return events
            }
            return queue.ended ? [] : nil
        }
    }

    /// The reader is gone: the stream no longer counts as open.
    public func cancel() { link.unsubscribe(id) }
}
