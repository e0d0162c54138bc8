import CycleCore

/// One device's roles, kind and whether it is followed, from its entities: the table first,
/// the fallback rules for what the table doesn't know. The same for the same entities in
/// any order: candidates are ranked by the table's row order, then by entity id.
struct DeviceAssessment: Equatable {
    var entities: [Role: String]
    var sources: [Role: RoleSource]
    var kind: ApplianceKind
    /// Why the device is left out; nil when it is followed.
    var leftOut: String?

    /// Roles whose presence shows the device runs cycles (a program, a remaining time, …).
    static let cycleEvidence: [Role] = [.program, .remainingTime, .elapsedTime, .totalTime, .finishTime, .progress]
    /// Kinds that run cycles by what they are, even with only an operation state.
    static let cycleKinds: Set<ApplianceKind> = [.washer, .dryer, .washerDryer, .dishwasher]
    /// Brands whose ovens are not followed (docs/CYCLES.md, "Which devices").
    static let ovensLeftOut: [BrandProfile: String] = [
        .lgThinQ: "an LG ThinQ oven has a finish time and `done`, but its states include `cooling` (the cool-down), which the LG profile reads as a dryer's running step: every cool-down would start a new cycle",
        .whirlpool: "a Whirlpool oven reports its state, cook mode and temperatures: no timer, no end time",
        .smartThings: "a SmartThings oven's machine state (ready, running, paused) has no end state, so switching it off would read as a finished cycle",
    ]

    init(_ record: DiscoveryRecord, profile: BrandProfile) {
        let integration = record.domain ?? profile.domain ?? "home_connect"
        var chosen: [Role: (rank: Int, uniqueID: String, id: String)] = [:]
        var hints: Set<ApplianceKind> = []
        var known: Set<String> = []
        for entity in record.entities {
            guard let row = RoleTable.row(for: entity, integration: integration) else { continue }
            known.insert(entity.id)
            if let kind = row.kind { hints.insert(kind) }
            guard let role = row.role, let rank = RoleTable.rows.firstIndex(of: row) else { continue }
            let candidate = (rank: rank, uniqueID: entity.registry?.uniqueID ?? "", id: entity.id)
            if let current = chosen[role], (current.rank, current.uniqueID, current.id) <= candidate { continue }
            chosen[role] = candidate
        }
        entities = chosen.mapValues(\.id)
        sources = chosen.mapValues { _ in .table }
        // Only entities the integration declared nothing about go to the fallback: a declared
        // key the table doesn't list takes no role (the table lists every key that carries one).
        let unknown = record.entities.filter { entity in
            !known.contains(entity.id) && entity.registry?.translationKey == nil
        }
        var fallback = RoleFallback.roles(of: unknown, profile: profile, filled: Set(entities.keys))
        if entities[.operationState] == nil, fallback[.operationState] == nil {
            // Except the operation state, which any entity the table doesn't know may be: an
            // integration version that named its state sensor otherwise still gets followed.
            let unlisted = record.entities.filter { !known.contains($0.id) }
            let others = Set(Role.allCases).subtracting([.operationState])
            fallback.merge(RoleFallback.roles(of: unlisted, profile: profile, filled: others)) { first, _ in first }
        }
        for (role, id) in fallback {
            entities[role] = id
            sources[role] = .fallback
        }
        let found = entities
        func options(_ role: Role) -> [String] {
            found[role].flatMap { id in record.entities.first { $0.id == id }?.options } ?? []
        }
        kind = Self.kind(record, profile: profile, programOptions: options(.program), stateOptions: options(.operationState),
                         hints: hints)
        leftOut = Self.reason(kind: kind, profile: profile, roles: Set(entities.keys))
    }

    /// The kind: a Miele device type in the model, an LG ThinQ device type in the model or an
    /// LG oven's states (`cooking_in_progress`), Home Connect's program keys; else, for Miele
    /// and Home Connect, the type in the device's name (both integrations name a device by
    /// its type unless the user named it: miele/entity.py; Home Connect's appliance name);
    /// else the kinds the table's keys show (both washer and dryer: a washer-dryer; else the
    /// first in `ApplianceKind` order), else an air conditioner for a device with a
    /// `climate` entity. Only the kind, never a role, is read from a name.
    static func kind(_ record: DiscoveryRecord, profile: BrandProfile, programOptions: [String],
                     stateOptions: [String], hints: Set<ApplianceKind>) -> ApplianceKind {
        let model = record.model ?? ""
        let declared: ApplianceKind? = switch profile {
        case .miele: ApplianceKind.named(model) ?? ApplianceKind.named(record.name ?? "")
        case .lgThinQ: stateOptions.contains("cooking_in_progress") ? .oven : ApplianceKind.lgThinQ(model: model)
        case .homeConnect:
            ApplianceKind.homeConnect(programOptions: programOptions) ?? ApplianceKind.named(record.name ?? "")
        default: nil
        }
        if let declared { return declared }
        if hints.isSuperset(of: [.washer, .dryer]) { return .washerDryer }
        if let hinted = hints.sorted().first { return hinted }
        if record.entities.contains(where: { $0.domain == "climate" }) { return .airConditioner }
        return .other
    }

    /// Why a device of `kind` with these roles is not followed, or nil.
    static func reason(kind: ApplianceKind, profile: BrandProfile, roles: Set<Role>) -> String? {
        if kind.neverCycles {
            return "\(kind.rawValue): runs no cycles (its \"in use\" or \"running\" is not a cycle)"
        }
        if kind == .oven, let why = ovensLeftOut[profile] {
            return "oven: not followed: \(why)"
        }
        guard roles.contains(.operationState) else {
            return "no operation state: expected \(BrandOperationSensor.expected(profile))"
        }
        if !cycleKinds.contains(kind), !cycleEvidence.contains(where: roles.contains) {
            return "\(kind.rawValue): no evidence of cycles (no program, remaining, elapsed or total time, finish time or progress)"
        }
        return nil
    }
}
