extension HomeAssistantWebSocket {
    /// What the connection delivers once it is subscribed.
    public enum Event: Sendable, Equatable {
        /// New states of tracked entities, to merge into the runner's map of entity id →
        /// state. The first one after connecting holds every tracked id (nil for an
        /// entity HA doesn't have), exactly what ``HomeAssistantClient/states(of:)``
        /// answers; later ones hold only entities whose state, unit or device class
        /// changed, and nil for one that was removed.
        ///
        /// `endsBatch`: these are every state HA had ready to send at once, all that
        /// HA's last turn wrote (what one action, one event of the appliance's
        /// integration, set together), so nothing more of that change follows. True
        /// only where HA coalesces its messages (`supported_features`, asked for on
        /// every connection): then each WebSocket message is everything HA queued in one
        /// turn of its event loop, delivered as one event.
        case states([String: EntityState?], endsBatch: Bool = false)
        /// HA fired `entity_registry_updated` or `device_registry_updated`: entities or
        /// devices were added, removed or changed, so discovery should run again.
        /// `action` is HA's (`create`, `remove`, `update`), when it sent one.
        case registryUpdated(Registry, action: String?)
        /// A button on a notification was tapped (HA's `mobile_app_notification_action`
        /// event, from the Companion app): its `action`.
        case notificationAction(String)
        /// HA refused to send the notification actions (a token whose user isn't an
        /// administrator); the rest of the subscription is live.
        case notificationActionsRefused(reason: String)
    }

    /// The event HA fires when a button on a notification is tapped.
    public static let notificationActionEvent = "mobile_app_notification_action"

    /// Which of HA's registries changed.
    public enum Registry: String, Sendable, Equatable, CaseIterable {
        case entity = "entity_registry_updated"
        case device = "device_registry_updated"
    }
}
