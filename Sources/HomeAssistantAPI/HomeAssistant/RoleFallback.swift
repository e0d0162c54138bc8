import CycleCore
import FoundationEssentials

/// The roles of entities ``RoleTable`` doesn't know (no registry entry, as when HA's
/// WebSocket refused the registry read, or no translation key and no known unique id),
/// from their attributes: `options`, unit, device class, never their entity ids. Each
/// entity takes at most one role; entities are considered in entity id order, so the answer
/// doesn't depend on the order HA lists them in. Rules, in this order:
/// - operation state: Home Connect: a `sensor` whose options contain `run`, `pause` and
///   `finished` and at least 4 of `inactive ready delayedstart actionrequired error aborting`;
///   with several, the one knowing most of these values. Other brands: the `sensor` whose
///   options hold the brand's own states (`BrandOperationSensor`).
/// - phase (other brands): an enum `sensor` whose options hold at least two of the phase
///   words (`wash`, `rinse`, `spin`, `drying`, `main_wash`, …).
/// - program (Miele): an enum `sensor` whose options contain `no_program`.
/// - remaining, elapsed or total time (other brands): `sensor`s of device class `duration`
///   in `min`, `s` or `h`. LG ThinQ has one, the total time; otherwise the first is the
///   remaining time and the next the elapsed time.
/// - door: a `sensor` whose options contain `open` and `closed`, else a `binary_sensor` of
///   device class `door` (Miele, Whirlpool, Electrolux: `on` is open).
/// - program: a `select` whose options are mostly program keys (containing `_program_`
///   or starting with `dishcare_`, `laundry_care_`, `cooking_`, `consumer_products_`).
/// - finish time: a `sensor` of device class `timestamp`; of several, the one with the
///   latest time (a start lies before the finish), else the first.
/// - progress: a `sensor` with unit `%`, not of device class battery, humidity or
///   moisture; of several, preferably one whose state is a number, `unavailable` or `unknown`.
/// - temperature: a `sensor` of device class `temperature`.
/// - power: a `sensor` in `W` or `kW`; energy: a `sensor` in `kWh` or `Wh`
///   (device class `power` / `energy` preferred).
enum RoleFallback {
    /// The entity id per role among `entities`, leaving the roles in `filled` alone.
    static func roles(of entities: [DiscoveryRecord.Entity], profile: BrandProfile,
                      filled: Set<Role> = []) -> [Role: String] {
        var remaining = entities.sorted { $0.id < $1.id }
        var roles: [Role: String] = [:]
        func take(_ role: Role, _ choose: ([DiscoveryRecord.Entity]) -> DiscoveryRecord.Entity?) {
            guard !filled.contains(role), roles[role] == nil, let chosen = choose(remaining) else { return }
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
                take(.totalTime) { $0.first(where: isDuration) }
            } else {
                take(.remainingTime) { $0.first(where: isDuration) }
                take(.elapsedTime) { $0.first(where: isDuration) }
            }
        }
        takeCommon(take)
        return roles
    }

    private static func takeCommon(_ take: (Role, ([DiscoveryRecord.Entity]) -> DiscoveryRecord.Entity?) -> Void) {
        take(.door) { candidates in
            candidates.first { $0.domain == "sensor" && hasOptions($0, ["open", "closed"]) }
                ?? candidates.first { $0.domain == "binary_sensor" && $0.deviceClass == "door" }
        }
        take(.program) { $0.first(where: isProgramSelect) }
        take(.finishTime) { candidates in
            let stamps = candidates.filter { $0.domain == "sensor" && $0.deviceClass == "timestamp" }
            let dated = stamps.compactMap { entity in
                ApplianceRoleRecognizer.parseTimestamp(entity.state).map { (entity, $0) }
            }
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

    static func isProgramSelect(_ entity: DiscoveryRecord.Entity) -> Bool {
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

    /// The first of `candidates` (in entity id order) with the highest score.
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
}
