import CycleCore
import FoundationEssentials

/// Recognises the brands' devices: which are cycle appliances, and the entity of each
/// role. Pure: no I/O. The device's integration domain chooses the brand profile
/// (`BrandProfile(domain:)`). Roles come from what the integration declares about each
/// entity (``RoleTable``: platform, translation key, unique id, from HA's entity
/// registry), and only for entities the table doesn't know from their attributes
/// (``RoleFallback``); each role says which (``DiscoveredDevice/sources``). A device is
/// followed only with evidence of cycles (``DeviceAssessment``): fridges, freezers,
/// hoods and air conditioners are left out with the reason. The answer is the same for
/// the same entities in any order.
public enum ApplianceRoleRecognizer {
    /// What ``recognize(discoveryJSON:)`` couldn't read.
    public struct FormatError: Error, Sendable, Equatable {
        /// What was wrong, and where in the JSON.
        public var detail: String
    }

    /// Reads the discovery template's answer and recognises every device.
    public static func recognize(discoveryJSON: String) throws(FormatError) -> DiscoveryResult {
        recognize(try records(discoveryJSON: discoveryJSON))
    }

    /// Reads the discovery template's answer.
    public static func records(discoveryJSON: String) throws(FormatError) -> [DiscoveryRecord] {
        do {
            return try JSONDecoder().decode([DiscoveryRecord].self, from: Data(discoveryJSON.utf8))
        } catch let error as DecodingError {
            throw FormatError(detail: describe(error))
        } catch {
            throw FormatError(detail: String(describing: error))
        }
    }

    /// `records` with each entity's registry entry from `entries` (by entity id).
    public static func merging(_ entries: [String: DiscoveryRecord.RegistryEntry],
                               into records: [DiscoveryRecord]) -> [DiscoveryRecord] {
        records.map { record in
            var record = record
            for index in record.entities.indices {
                record.entities[index].registry = entries[record.entities[index].id]
            }
            return record
        }
    }

    /// Recognises every device; a device that isn't a cycle appliance (``DeviceAssessment``),
    /// or whose id can't make an appliance id, is skipped with the reason.
    public static func recognize(_ records: [DiscoveryRecord]) -> DiscoveryResult {
        var devices: [DiscoveredDevice] = []
        var skipped: [SkippedDevice] = []
        for record in records {
            let name = displayName(record)
            guard let applianceID = applianceID(forDeviceID: record.id) else {
                skipped.append(SkippedDevice(deviceID: record.id, name: name,
                                             reason: "device id gives no appliance id: expected letters, digits, _ or -"))
                continue
            }
            if devices.contains(where: { $0.applianceID == applianceID }) {
                skipped.append(SkippedDevice(deviceID: record.id, name: name,
                                             reason: "appliance id \(applianceID) already taken by another device"))
                continue
            }
            let profile = record.domain.flatMap(BrandProfile.init(domain:)) ?? .homeConnect
            let assessment = DeviceAssessment(record, profile: profile)
            if let reason = assessment.leftOut {
                skipped.append(SkippedDevice(deviceID: record.id, name: name, reason: reason, kind: assessment.kind))
                continue
            }
            let entities = assessment.entities
            var units: [Role: String] = [:]
            for (role, id) in entities {
                if let unit = record.entities.first(where: { $0.id == id })?.unit, !unit.isEmpty {
                    units[role] = unit
                }
            }
            devices.append(DiscoveredDevice(deviceID: record.id, applianceID: applianceID, name: name,
                                            manufacturer: record.manufacturer, model: record.model,
                                            entities: entities, units: units, profile: profile,
                                            kind: assessment.kind, sources: assessment.sources))
        }
        return DiscoveryResult(devices: devices, skipped: skipped)
    }

    /// The HA device's name (`name_by_user`, else `name`, as the template gives it), else its
    /// maker and model ("LG WM3600HWA"), else its id: never a name made from the integration.
    static func displayName(_ record: DiscoveryRecord) -> String {
        func given(_ text: String?) -> String? { text.flatMap { $0.contains { !$0.isWhitespace } ? $0 : nil } }
        if let name = given(record.name) { return name }
        let made = [record.manufacturer, record.model].compactMap(given)
        return made.isEmpty ? record.id : made.joined(separator: " ")
    }

    /// The appliance id for an HA device id: its characters outside `[A-Za-z0-9_-]`
    /// replaced by `_`, at most 50 of them; nil for an empty id.
    public static func applianceID(forDeviceID deviceID: String) -> String? {
        let allowed = deviceID.prefix(50).map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-")
                ? character : "_"
        }
        return allowed.isEmpty ? nil : String(allowed)
    }

    /// An HA timestamp state (`2026-11-29T13:05:12+00:00`, fractional seconds allowed).
    static func parseTimestamp(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "at the top" : "at \(keys)"
        }
        switch error {
        case .typeMismatch(let type, let context): return "expected \(type) \(path(context))"
        case .valueNotFound(let type, let context): return "expected \(type), found null \(path(context))"
        case .keyNotFound(let key, let context): return "missing key \(key.stringValue) \(path(context))"
        case .dataCorrupted(let context): return "not valid JSON \(path(context))"
        @unknown default: return "not the expected JSON"
        }
    }
}

extension ApplianceRoleRecognizer {
    /// The entity id per role among `entities` by the fallback rules alone (``RoleFallback``).
    public static func roles(of entities: [DiscoveryRecord.Entity], profile: BrandProfile = .homeConnect) -> [Role: String] {
        RoleFallback.roles(of: entities, profile: profile)
    }
}
