/// The Companion notification tags of an appliance. iOS refuses a Live Activity
/// whose tag has other characters than `[A-Za-z0-9_-]` or more than 64 of them.
public enum NotificationTag {
    /// The id part is cut to this length so that even the end tag stays within 64.
    static let maximumIDLength = 50

    /// `appliance_<id>`: the tag of every live call and the clear of its cycles.
    public static func live(applianceID: String) -> String {
        "appliance_" + sanitised(applianceID)
    }

    /// `appliance_<id>_end`: the end notification's own tag, so the next cycle's end replaces it.
    public static func end(applianceID: String) -> String {
        "appliance_" + sanitised(applianceID) + "_end"
    }

    private static func sanitised(_ id: String) -> String {
        let allowed = id.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "-": Character(scalar)
            default: "_"
            }
        }
        return String(allowed.prefix(maximumIDLength))
    }
}
