/// The *Unloaded* button on an appliance's end notification and unload reminders
/// (docs/PUSHES.md, "Unload reminder"). The Companion app fires HA's
/// `mobile_app_notification_action` event with the button's `action` when it is tapped;
/// cycletrack follows that event and stops the appliance's reminders.
public enum UnloadedAction {
    static let prefix = "CYCLETRACK_UNLOADED_"

    /// The button's action for an appliance: `CYCLETRACK_UNLOADED_<id>`.
    public static func action(applianceID: String) -> String {
        prefix + applianceID
    }

    /// The appliance an action names; nil for any other action (Supernotify's snooze,
    /// another app's buttons).
    public static func applianceID(of action: String) -> String? {
        guard action.hasPrefix(prefix) else { return nil }
        let id = String(action.dropFirst(prefix.count))
        return id.isEmpty ? nil : id
    }

    /// The `actions` list of a call: the one button, titled in the appliance's language.
    static func actions(settings: ApplianceSettings) -> JSONValue {
        .array([.object(JSONObject([
            ("action", .string(action(applianceID: settings.id))),
            ("title", .string(Texts.render(settings.texts.unloaded, ["name": settings.name]))),
        ]))])
    }
}
