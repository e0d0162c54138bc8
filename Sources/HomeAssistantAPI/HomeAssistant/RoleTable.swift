import CycleCore

/// The role of an entity by what its integration declares about it in HA's entity registry:
/// (integration, translation key) → role, read from each integration's source (the file is
/// named in every row; docs/CYCLES.md, "Keys and roles", lists the same table and a test
/// compares them). An entity the integration names by its device class only (no translation
/// key) is matched by the description key its `unique_id` carries. A row without a role is a
/// key known to take none (Miele's `energy_forecast` is a percentage, not a progress).
public enum RoleTable {
    /// How a row's key is found on an entity.
    public enum Match: String, Sendable {
        /// The registry's `translation_key`.
        case translationKey = "translation_key"
        /// The integration's description key in the `unique_id` (entities without a translation key).
        case uniqueID = "unique_id"
    }

    public struct Row: Sendable, Equatable {
        public var integration: String
        public var key: String
        public var match: Match
        /// The entity's domain when the key alone is ambiguous (`binary_sensor`, `select`).
        public var domain: String?
        /// nil: the key is known and takes no role.
        public var role: Role?
        /// The appliance kind an entity of this key shows (a SmartThings washer's machine state).
        public var kind: ApplianceKind?
        /// The integration's file the key was read in.
        public var source: String
    }

    /// Every row, in priority order: of two entities of one device for the same role, the
    /// one whose row comes first wins, then the lower unique id (not translated, not renamed;
    /// an LG oven's `…_lower_…` cavity before its `…_upper_…`), then the lower entity id.
    public static let rows: [Row] = homeConnect + miele + lgThinQ + smartThings + whirlpool + electrolux

    /// The row for `entity` of a device of `integration`, or nil when the table doesn't know it
    /// (no registry entry, or a key no row lists).
    public static func row(for entity: DiscoveryRecord.Entity, integration: String) -> Row? {
        guard let registry = entity.registry else { return nil }
        if let platform = registry.platform, platform != integration { return nil }
        let candidates = rows.lazy.filter { $0.integration == integration && ($0.domain ?? entity.domain) == entity.domain }
        if let key = registry.translationKey {
            return candidates.first { $0.match == .translationKey && $0.key == key }
        }
        guard let uniqueID = registry.uniqueID else { return nil }
        if integration == "electrolux_status" {
            let key = electroluxKey(uniqueID)
            return candidates.first { $0.match == .uniqueID && $0.key == key }
        }
        // `<device>-<key>` (Miele, Whirlpool), `…_<key>` or `….<key>` (SmartThings, by version).
        return candidates.first { row in
            row.match == .uniqueID && ["-", "_", "."].contains { uniqueID.hasSuffix($0 + row.key) }
        }
    }

    /// electrolux_status/entity.py, `unique_id`: `{entry_id}-{entity_attr}-{entity_source or 'root'}-{pnc_id}`;
    /// the key is the catalog's: `timeToEnd`, `userSelections/programUID`, `fridge/applianceState`.
    static func electroluxKey(_ uniqueID: String) -> String? {
        let parts = uniqueID.split(separator: "-", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        return parts[2] == "root" ? String(parts[1]) : "\(parts[2])/\(parts[1])"
    }

    static func row(_ integration: String, _ key: String, _ role: Role?, kind: ApplianceKind? = nil,
                    match: Match = .translationKey, domain: String? = nil, source: String) -> Row {
        Row(integration: integration, key: key, match: match, domain: domain, role: role, kind: kind, source: source)
    }
}
