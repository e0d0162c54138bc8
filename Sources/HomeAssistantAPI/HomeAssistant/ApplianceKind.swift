/// What kind of appliance a device is, as its integration says (a Miele or LG ThinQ device
/// type in the device's model, the key of its state sensor, its program keys). Decides,
/// with the evidence of cycles, whether discovery follows it (docs/CYCLES.md, "Which devices").
public enum ApplianceKind: String, Sendable, CaseIterable, Comparable {
    case washer
    case dryer
    case washerDryer = "washer_dryer"
    case dishwasher
    case oven
    case coffeeMachine = "coffee_machine"
    case fridge
    case freezer
    case hood
    case airConditioner = "air_conditioner"
    case hob
    case vacuum
    /// None of the above, or the integration doesn't say.
    case other

    public static func < (lhs: ApplianceKind, rhs: ApplianceKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!  // every case is in allCases
    }

    /// Kinds never followed, whatever their entities: their "running" is not a cycle
    /// (a fridge or freezer that is simply on reports Miele's `in_use`, a hood's fan run too).
    var neverCycles: Bool {
        switch self {
        case .fridge, .freezer, .hood, .airConditioner, .hob, .vacuum: true
        default: false
        }
    }

    /// The kind an appliance type's name says: a Miele device type as its integration makes
    /// the model ("Washing machine", "Tumble dryer", "Steam oven micro": miele/const.py,
    /// `DEVICE_TYPE_TAGS`, and miele/entity.py), or a Home Connect appliance type
    /// ("WasherDryer", "CoffeeMaker", "FridgeFreezer"). Case, spaces and underscores don't count.
    static func named(_ type: String) -> ApplianceKind? {
        let name = String(type.lowercased().filter { $0.isLetter })
        let kinds: [(String, ApplianceKind)] = [
            ("dishwasher", .dishwasher), ("washerdryer", .washerDryer), ("washingmachine", .washer),
            ("washer", .washer), ("dryer", .dryer), ("coffee", .coffeeMachine), ("fridgefreezer", .fridge),
            ("refrigerator", .fridge), ("fridge", .fridge), ("freezer", .freezer), ("wine", .fridge),
            ("airconditioner", .airConditioner), ("hood", .hood), ("hob", .hob), ("cooktop", .hob),
            ("vacuum", .vacuum), ("cleaningrobot", .vacuum), ("microwave", .oven), ("oven", .oven),
        ]
        return kinds.first { name.contains($0.0) }?.1
    }

    /// The kind an LG ThinQ device type names: lg_thinq/entity.py makes the model
    /// "<model name> (DEVICE_WASHER)" (thinqconnect's `DeviceType`).
    static func lgThinQ(model: String) -> ApplianceKind? {
        guard let open = model.lastIndex(of: "("), let close = model.lastIndex(of: ")"), open < close else { return nil }
        let type = model[model.index(after: open)..<close].lowercased()
        let kinds: [(String, ApplianceKind)] = [
            ("washcombo", .washerDryer), ("washtower_dryer", .dryer), ("washtower_washer", .washer),
            ("washtower", .washerDryer), ("dish_washer", .dishwasher), ("washer", .washer), ("dryer", .dryer),
            ("microwave", .oven), ("oven", .oven), ("cooktop", .hob), ("refrigerator", .fridge),
            ("wine_cellar", .fridge), ("air_conditioner", .airConditioner), ("hood", .hood),
            ("robot_cleaner", .vacuum), ("stick_cleaner", .vacuum),
        ]
        return kinds.first { type.contains($0.0) }?.1 ?? .other
    }

    /// The kind Home Connect's program keys name (`dishcare_dishwasher_program_eco_50`,
    /// `laundry_care_washer_program_cotton`, `cooking_oven_program_…`, `consumer_products_coffee_maker_…`,
    /// `cooking_common_program_hood_…`).
    static func homeConnect(programOptions: [String]) -> ApplianceKind? {
        let kinds: [(String, ApplianceKind)] = [
            ("laundry_care_washer_dryer_", .washerDryer), ("laundry_care_washer_", .washer),
            ("laundry_care_dryer_", .dryer), ("dishcare_dishwasher_", .dishwasher), ("cooking_oven_", .oven),
            ("consumer_products_coffee_maker_", .coffeeMachine), ("cooking_common_program_hood_", .hood),
            ("consumer_products_cleaning_robot_", .vacuum), ("heating_venting_air_conditioning_", .airConditioner),
        ]
        for (prefix, kind) in kinds where programOptions.contains(where: { $0.hasPrefix(prefix) }) {
            return kind
        }
        return nil
    }
}
