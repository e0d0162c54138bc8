/// A washer and the dryer its laundry goes to next (docs/PUSHES.md, "Washer and dryer").
/// The household links them: the washer's end notification and unload reminders say to
/// move the laundry to the dryer, and the dryer starting stops the washer's reminders, as
/// its own door opening does (the laundry left it).
///
/// Each appliance's `dryer` setting says where its laundry goes: `auto` (the default) is
/// the household's dryer when this is a washer and the household has exactly one dryer;
/// `off` is nowhere; an appliance id is that appliance, whatever its kind, when the
/// household follows it. Kinds are told from the id and name as a smart plug's are
/// (`PlugKind`), else from a configured `mdi:tumble-dryer` or `mdi:washing-machine` icon; a
/// washer-dryer dries its own laundry and links to nothing by itself, nor is it the dryer.
public enum LaundryLink {
    /// `dryer` `auto`: the household's one dryer, for a washer.
    public static let automatic = "auto"
    /// `dryer` `off`: no dryer.
    public static let off = "off"

    /// What the appliance is, for the link.
    public static func kind(of settings: ApplianceSettings) -> PlugKind {
        let kind = PlugKind.of(id: settings.id, name: settings.name)
        guard kind == .other else { return kind }
        switch settings.icon {
        case "mdi:tumble-dryer": return .dryer
        case "mdi:washing-machine": return .washer
        default: return .other
        }
    }

    /// The dryer each appliance's laundry goes to, by the appliance's id: the id of another
    /// of `appliances`. An appliance that goes nowhere is not a key.
    public static func links(_ appliances: [ApplianceSettings]) -> [String: String] {
        let ids = Set(appliances.map(\.id))
        let dryers = appliances.filter { kind(of: $0) == .dryer }.map(\.id)
        var links: [String: String] = [:]
        for appliance in appliances {
            switch appliance.dryer {
            case off:
                continue
            case automatic:
                if kind(of: appliance) == .washer, dryers.count == 1 { links[appliance.id] = dryers[0] }
            case let named:
                if named != appliance.id, ids.contains(named) { links[appliance.id] = named }
            }
        }
        return links
    }
}
