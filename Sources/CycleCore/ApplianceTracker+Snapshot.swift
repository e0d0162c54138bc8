import FoundationEssentials

extension ApplianceTracker {
    /// Everything needed to carry on after a restart: the machine's state, the open
    /// cycle and what was last sent for it. Codable, for the store.
    public struct Snapshot: Sendable, Codable, Equatable {
        var machine: CycleMachine
        var planner: PushPlanner
        /// Optional, so that snapshots saved before reminders existed still decode.
        var reminder: UnloadReminder?
        /// The last door reading: true closed or locked, false open, nil unknown.
        var doorClosed: Bool?
        /// A smart plug's power reading (`profile` `.plug`); absent in older snapshots.
        var power: PowerCycleDetector?
        /// An end notification or reminder waiting for quiet hours or presence; absent in older snapshots.
        var held: HeldNotice?
        /// A delayed start's wait, shown or not yet (`DelayedStart`); absent in older snapshots.
        var waiting: DelayedStart?
        /// The last error event of the appliance's reason entity; absent in older snapshots.
        var errorEvent: ErrorEvent?
        /// True while a finished cycle waits to be unloaded; absent when not, and in older snapshots.
        var awaitsUnloading: Bool?

        /// What a smart plug learned of itself (nil: not a plug).
        public var plugSignature: PlugSignature? { power?.signature }
    }
}
