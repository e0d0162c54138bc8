import CycleCore
import FoundationEssentials

/// Assigns entity roles to the brands' devices from their attributes (`options`,
/// unit, device class), never from entity ids, which HA localises. Pure: no I/O. The
/// device's integration domain chooses the brand profile (`BrandProfile(domain:)`).
///
/// Rules, each entity taking at most one role, in this order:
/// - operation state: Home Connect: a `sensor` whose options contain `run`, `pause` and
///   `finished` and at least 4 of `inactive ready delayedstart actionrequired error aborting`;
///   with several, the one knowing most of these values, then the first. Other brands: the
///   `sensor` whose options hold the brand's own states (`BrandOperationSensor`).
/// - phase (other brands): an enum `sensor` whose options hold at least two of the phase
///   words (`wash`, `rinse`, `spin`, `drying`, `main_wash`, …).
/// - program (Miele): an enum `sensor` whose options contain `no_program`.
/// - remaining, elapsed or total time (other brands): `sensor`s of device class `duration`
///   in `min`, `s` or `h`. LG ThinQ has one, the total time (its remaining time is a
///   timestamp, taken as the finish time). Otherwise the first one whose id says `remain`
///   is the remaining time, else the first; the next is the elapsed time. (Miele registers
///   remaining, elapsed, then start time in this order; ids only break the tie.)
/// - door: a `sensor` whose options contain `open` and `closed`, else a `binary_sensor` of
///   device class `door` (Miele, Whirlpool, Electrolux: `on` is open).
/// - program: a `select` whose options are mostly program keys (containing `_program_`
///   or starting with `dishcare_`, `laundry_care_`, `cooking_`, `consumer_products_`).
///   Home Connect has two: the active and the selected program. The one whose id
///   contains `active` wins; else the first, which is the active one too, since the
///   integration registers it first (this matters for localised ids).
/// - finish time: a `sensor` of device class `timestamp`. Some appliances also report
///   a start time the same way; a start lies before the finish, so of several the one
///   with the latest time wins. When none has a time (the appliance is idle at
///   discovery) the first wins; a configured entity id overrides discovery.
/// - progress: a `sensor` with unit `%`, not of device class battery, humidity or
///   moisture (never a cycle's progress); of several, preferably one whose state is a
///   number, `unavailable` or `unknown`, then the first.
/// - temperature: a `sensor` of device class `temperature`.
/// - power: a `sensor` in `W` or `kW`; energy: a `sensor` in `kWh` or `Wh`
///   (device class `power` / `energy` preferred).
public enum ApplianceRoleRecognizer {
    /// What ``recognize(discoveryJSON:)`` couldn't read.
    public struct FormatError: Error, Sendable, Equatable {
        /// What was wrong, and where in the JSON.
        public var detail: String
    }

    /// Reads the discovery template's answer and recognises every device.
    public static func recognize(discoveryJSON: String) throws(FormatError) -> DiscoveryResult {
        let records: [DiscoveryRecord]
        do {
            records = try JSONDecoder().decode([DiscoveryRecord].self, from: Data(discoveryJSON.utf8))
        } catch let error as DecodingError {
            throw FormatError(detail: describe(error))
        } catch {
            throw FormatError(detail: String(describing: error))
        }
        return recognize(records)
    }

    /// Recognises every device; a device without an operation state, or whose id can't
    /// make an appliance id, is skipped with the reason.
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
            let entities = roles(of: record.entities, profile: profile)
            guard entities[.operationState] != nil else {
                skipped.append(SkippedDevice(
                    deviceID: record.id, name: name,
                    reason: "no operation state: expected \(BrandOperationSensor.expected(profile))"))
                continue
            }
            var units: [Role: String] = [:]
            for (role, id) in entities {
                if let unit = record.entities.first(where: { $0.id == id })?.unit, !unit.isEmpty {
                    units[role] = unit
                }
            }
            devices.append(DiscoveredDevice(deviceID: record.id, applianceID: applianceID, name: name,
                                            manufacturer: record.manufacturer, model: record.model,
                                            entities: entities, units: units, profile: profile))
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

    /// The entity id per role among `entities` (see the rules above).
    public static func roles(of entities: [DiscoveryRecord.Entity], profile: BrandProfile = .homeConnect) -> [Role: String] {
        var remaining = entities
        var roles: [Role: String] = [:]
        func take(_ role: Role, _ choose: ([DiscoveryRecord.Entity]) -> DiscoveryRecord.Entity?) {
            guard let chosen = choose(remaining) else { return }
            roles[role] = chosen.id
            remaining.removeAll { $0.id == chosen.id }
        }
        if profile == .homeConnect {
            take(.operationState) { candidates in
                best(candidates.filter(isOperationState)) { knownOperationStates(in: $0) }
            }
        } else {
            take(.operationState) { candidates in BrandOperationSensor.choose(candidates, profile: profile) }
            take(.phase) { candidates in
                best(candidates.filter(isPhase)) { entity in phaseWords.filter { entity.options?.contains($0) ?? false }.count }
            }
            take(.program) { $0.first { $0.domain == "sensor" && ($0.options?.contains("no_program") ?? false) } }
            if profile == .lgThinQ {
                // LG ThinQ's only duration is the total time; its remaining time is a timestamp (the finish time).
                take(.totalTime) { $0.first(where: isDuration) }
            } else {
                take(.remainingTime) { candidates in
                    let durations = candidates.filter(isDuration)
                    return durations.first { $0.id.contains("remain") } ?? durations.first
                }
                take(.elapsedTime) { $0.first(where: isDuration) }
            }
        }
        take(.door) { candidates in
            candidates.first { $0.domain == "sensor" && hasOptions($0, ["open", "closed"]) }
                ?? candidates.first { $0.domain == "binary_sensor" && $0.deviceClass == "door" }
        }
        take(.program) { candidates in
            let programs = candidates.filter(isProgramSelect)
            return programs.first { $0.id.contains("active") } ?? programs.first
        }
        take(.finishTime) { candidates in
            let stamps = candidates.filter { $0.domain == "sensor" && $0.deviceClass == "timestamp" }
            let dated = stamps.compactMap { entity in parseTimestamp(entity.state).map { (entity, $0) } }
            return dated.max { $0.1 < $1.1 }?.0 ?? stamps.first
        }
        take(.progress) { candidates in
            best(candidates.filter(isProgress)) { isNumericOrUnavailable($0.state) ? 1 : 0 }
        }
        take(.temperature) { $0.first { $0.domain == "sensor" && $0.deviceClass == "temperature" } }
        take(.power) { candidates in
            best(candidates.filter { $0.domain == "sensor" && ["W", "kW"].contains($0.unit ?? "") }) {
                $0.deviceClass == "power" ? 1 : 0
            }
        }
        take(.energy) { candidates in
            best(candidates.filter { $0.domain == "sensor" && ["kWh", "Wh"].contains($0.unit ?? "") }) {
                $0.deviceClass == "energy" ? 1 : 0
            }
        }
        return roles
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

    // MARK: The rules

    private static let operationCore = ["run", "pause", "finished"]
    private static let operationOthers = ["inactive", "ready", "delayedstart", "actionrequired", "error", "aborting"]
    private static let programPrefixes = ["dishcare_", "laundry_care_", "cooking_", "consumer_products_"]
    private static let notProgress: Set<String> = ["battery", "humidity", "moisture"]

    private static let phaseWords = ["wash", "rinse", "spin", "drying", "main_wash", "pre_wash", "soak", "cooling",
                                     "cooling_down", "anti_crease", "drain", "final_rinse", "weight_sensing"]

    private static func isPhase(_ entity: DiscoveryRecord.Entity) -> Bool {
        guard entity.domain == "sensor", let options = entity.options else { return false }
        return phaseWords.filter(options.contains).count >= 2
    }

    private static func isDuration(_ entity: DiscoveryRecord.Entity) -> Bool {
        entity.domain == "sensor" && entity.deviceClass == "duration" && ["min", "s", "h"].contains(entity.unit ?? "")
    }

    private static func isOperationState(_ entity: DiscoveryRecord.Entity) -> Bool {
        guard entity.domain == "sensor", let options = entity.options else { return false }
        return operationCore.allSatisfy(options.contains)
            && operationOthers.filter(options.contains).count >= 4
    }

    private static func knownOperationStates(in entity: DiscoveryRecord.Entity) -> Int {
        (operationCore + operationOthers).filter { entity.options?.contains($0) ?? false }.count
    }

    private static func hasOptions(_ entity: DiscoveryRecord.Entity, _ values: [String]) -> Bool {
        guard let options = entity.options else { return false }
        return values.allSatisfy(options.contains)
    }

    private static func isProgramSelect(_ entity: DiscoveryRecord.Entity) -> Bool {
        guard entity.domain == "select", let options = entity.options, !options.isEmpty else { return false }
        let programs = options.filter { option in
            option.contains("_program_") || programPrefixes.contains { option.hasPrefix($0) }
        }
        return programs.count * 2 >= options.count
    }

    private static func isProgress(_ entity: DiscoveryRecord.Entity) -> Bool {
        entity.domain == "sensor" && entity.unit == "%" && !notProgress.contains(entity.deviceClass ?? "")
    }

    private static func isNumericOrUnavailable(_ state: String) -> Bool {
        state == "unavailable" || state == "unknown" || Double(state) != nil
    }

    /// The first of `candidates` with the highest score.
    private static func best(_ candidates: [DiscoveryRecord.Entity],
                             by score: (DiscoveryRecord.Entity) -> Int) -> DiscoveryRecord.Entity? {
        var chosen: (entity: DiscoveryRecord.Entity, score: Int)?
        for candidate in candidates {
            let value = score(candidate)
            if chosen == nil || value > chosen?.score ?? Int.min {
                chosen = (candidate, value)
            }
        }
        return chosen?.entity
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
