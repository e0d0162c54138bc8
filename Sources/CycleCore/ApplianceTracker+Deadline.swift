import FoundationEssentials

extension ApplianceTracker {
    /// The next moment the tracker acts without a new observation, and what acts then
    /// (`ApplianceTracker.nextDeadline`).
    public struct Deadline: Sendable, Equatable, CustomStringConvertible {
        /// What falls due.
        public enum Source: String, Sendable, Equatable {
            /// An end notification or reminder waiting for quiet hours or presence (`HeldNotice`).
            case heldNotice
            /// An unload reminder (`UnloadReminder`).
            case reminder
            /// A smart plug's start or end, confirmed without a new reading (`PowerCycleDetector`).
            case plug
            /// The open cycle ends as lost: unavailable for `lost_after_minutes`.
            case lost
            /// The open cycle's Live Activity is replaced by a fresh one before iOS ends it (`ActivityRenewal`).
            case renewal
            /// A delayed start's wait goes on the lock screen: the whole cycle now fits in one
            /// Live Activity's life (`DelayedStart`).
            case delayedStart
            /// A coalesced update or a heartbeat of the open cycle (`PushPlanner`).
            case update

            /// Whether the deadline is the open cycle's own rather than a notice's or a reminder's.
            var isCycleDeadline: Bool {
                switch self {
                case .plug, .lost, .renewal, .delayedStart, .update: true
                case .heldNotice, .reminder: false
                }
            }
        }

        public var source: Source
        public var at: Date

        public init(source: Source, at: Date) {
            self.source = source
            self.at = at
        }

        public var description: String { "\(source.rawValue) at \(at.timeIntervalSince1970)" }
    }
}
