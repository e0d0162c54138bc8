import CycleCore

/// `check`'s rows for the washer and the dryer (docs/PUSHES.md, "Washer and dryer"):
/// each link the household will make, and a `dryer` setting that names no appliance
/// cycletrack follows, which links nothing.
extension CheckCommand {
    /// `appliances`: the settings in effect (the local API's changes applied).
    static func laundryRows(_ appliances: [ApplianceSettings]) -> [Row] {
        let links = LaundryLink.links(appliances)
        let names = Dictionary(appliances.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let followed = appliances.map(\.id).sorted().joined(separator: ", ")
        return appliances.compactMap { appliance in
            if let dryer = links[appliance.id] {
                let how = appliance.dryer == LaundryLink.automatic ? "auto: the household's one dryer" : "\"\(dryer)\""
                return Row(check: "laundry", ok: true,
                           detail: "\(appliance.id) → \(dryer) (dryer \(how)): its end and reminders say to move the laundry to "
                               + (names[dryer] ?? dryer))
            }
            switch appliance.dryer {
            case LaundryLink.automatic, LaundryLink.off:
                return nil
            case appliance.id:
                return Row(check: "  \(appliance.id).dryer", ok: false,
                           detail: "\"\(appliance.dryer)\" is the appliance itself: no dryer is linked (auto, off or another appliance's id)")
            default:
                return Row(check: "  \(appliance.id).dryer", ok: false,
                           detail: "\"\(appliance.dryer)\" is not an appliance cycletrack follows (\(followed)): no dryer is linked")
            }
        }
    }
}
