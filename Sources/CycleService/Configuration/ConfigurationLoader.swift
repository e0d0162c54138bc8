import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Finds and reads the configuration file: `--config`, then `$CYCLETRACK_CONFIG`, then
/// `./cycletrack.json`, then `/data/options.json` (the Home Assistant add-on's options).
public enum ConfigurationLoader {
    static let topKeys = [
        "home_assistant", "database", "history", "updates", "poll", "supernotify", "discover", "entities", "target",
        "texts", "appliances", "http", "quiet_hours", "presence_wait_hours", "people", "price",
    ]
    static let applianceKeys = [
        "id", "name", "icon", "entities", "notify_start", "notify_progress", "notify_end", "progress_steps",
        "cycle_push_limit", "dashboard", "target", "texts", "color", "relevance", "persistent", "fcm_high_priority",
        "settle_seconds", "min_update_seconds", "finish_jitter_seconds", "temperature_step", "heartbeat_minutes",
        "lost_after_minutes", "finish_correction", "unload_reminder_minutes", "unload_reminder_repeats",
        "profile", "power", "quiet_hours",
    ] + flatEntityKeys + flatPowerKeys
    /// The smart plug thresholds (`power.on_watts`, …), docs/REFERENCE.md.
    static let powerKeys = [
        "on_watts", "start_seconds", "off_watts", "off_seconds", "zero_watts", "quiet_seconds", "burst_seconds",
        "burst_window_seconds",
    ]
    /// `power_on_watts`, …: the same written flat, the add-on's form.
    static let flatPowerKeys = powerKeys.map { "power_\($0)" }
    /// `operation_state_entity`, `progress_entity`, ...: an entity per role written flat in
    /// the appliance, the form the add-on's options use (the Supervisor requires every
    /// nested group an entry leaves out, so the add-on offers no `entities` group).
    static let flatEntityKeys = Role.allCases.map { "\($0.rawValue)_entity" }
    static let textKeys = [
        "started", "started_program", "paused", "action_required", "running", "percent_complete", "finished",
        "aborted", "failed", "lost", "done_in", "done_in_no_program", "unload_reminder", "unload_reminder_no_program",
        "hours", "minutes",
    ]

    /// Every key the loader accepts, as dotted paths (`appliances[].notify_end`): the
    /// add-on's options schema is checked against this list.
    public static var knownKeys: Set<String> {
        var keys = Set(topKeys)
        keys.formUnion(["home_assistant.url", "home_assistant.token_file", "home_assistant.ca_file", "history.keep_days",
                        "poll.active_seconds", "poll.idle_seconds", "supernotify.mobile_deliveries",
                        "supernotify.daily_push_limit", "http.listen", "http.port", "http.allow",
                        "price.per_kwh", "price.currency", "price.entity"])
        keys.formUnion(textKeys.map { "texts.\($0)" })
        keys.formUnion(applianceKeys.map { "appliances[].\($0)" })
        keys.formUnion(Role.allCases.map { "appliances[].entities.\($0.rawValue)" })
        keys.formUnion(powerKeys.map { "appliances[].power.\($0)" })
        keys.formUnion(personKeys.map { "people[].\($0)" })
        return keys
    }

    /// The file to read, or nil when none of the places has one.
    public static func locate(explicit: String?, environment: [String: String]) throws(ConfigurationError) -> String? {
        if let explicit {
            guard FileManager.default.fileExists(atPath: explicit) else {
                throw ConfigurationError(.missingFile, "config file \(explicit) does not exist")
            }
            return explicit
        }
        if let fromEnvironment = environment["CYCLETRACK_CONFIG"], !fromEnvironment.isEmpty {
            guard FileManager.default.fileExists(atPath: fromEnvironment) else {
                throw ConfigurationError(.missingFile, "config file \(fromEnvironment) (from $CYCLETRACK_CONFIG) does not exist")
            }
            return fromEnvironment
        }
        for candidate in ["cycletrack.json", "/data/options.json"] where FileManager.default.fileExists(atPath: candidate) {
            return candidate
        }
        return nil
    }

    /// Locates and reads the configuration; defaults when there is no file.
    public static func load(explicit: String?, environment: [String: String]) throws(ConfigurationError) -> Configuration {
        guard let path = try locate(explicit: explicit, environment: environment) else {
            return Configuration(source: "defaults")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(.missingFile, "config file \(path) cannot be read")
        }
        return try parse(data, file: path)
    }

    /// Reads a configuration document; every error names the file and the key.
    public static func parse(_ data: Data, file: String) throws(ConfigurationError) -> Configuration {
        let tree: JSONTree
        do {
            tree = try JSONReader.parse([UInt8](data))
        } catch {
            let place = "line \(error.line), column \(error.column)"
            throw .config(error.duplicate ? "\(file): \(place): \(error.message)" : "\(file): not valid JSON at \(place): \(error.message)")
        }
        let top = try ObjectReader(tree, file: file, path: "", allowed: topKeys)
        var config = Configuration(source: file)
        try readHomeAssistant(top, into: &config)
        config.database = try top.string("database")
        if let history = try top.object("history", allowed: ["keep_days"]) {
            config.keepDays = try history.int("keep_days", in: 1...36_500)
        }
        try readPolling(top, into: &config)
        try readHTTP(top, file: file, into: &config)
        try readPrice(top, into: &config)
        config.discover = try top.bool("discover") ?? true
        config.entities = try top.bool("entities") ?? true
        config.target = try top.stringList("target")
        if let texts = try top.object("texts", allowed: textKeys) {
            config.texts = try readTexts(texts, over: config.texts)
        }
        try readDelivery(top, into: &config)
        config.appliances = try readAppliances(top, file: file, config: config)
        return config
    }

    /// `appliances`: each read over the household's defaults; ids are unique.
    private static func readAppliances(_ top: ObjectReader, file: String, config: Configuration) throws(ConfigurationError) -> [ApplianceConfiguration] {
        var appliances: [ApplianceConfiguration] = []
        guard let list = top.tree("appliances") else { return appliances }
        guard case .array(let items) = list else { throw top.mismatch("appliances", "a list of appliances", list) }
        for (index, item) in items.enumerated() {
            let appliance = try ObjectReader(item, file: file, path: "appliances[\(index)]", allowed: applianceKeys)
            let parsed = try readAppliance(appliance, config: config)
            if appliances.contains(where: { $0.settings.id == parsed.settings.id }) {
                throw appliance.invalid("id", "repeats the id '\(parsed.settings.id)'; each appliance needs its own")
            }
            appliances.append(parsed)
        }
        return appliances
    }

    /// `home_assistant: {url, token_file, ca_file}`.
    private static func readHomeAssistant(_ top: ObjectReader, into config: inout Configuration) throws(ConfigurationError) {
        guard let ha = try top.object("home_assistant", allowed: ["url", "token_file", "ca_file"]) else { return }
        config.homeAssistantURL = try ha.string("url")
        if let url = config.homeAssistantURL, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ha.invalid("url", "expects an http:// or https:// URL, found \"\(url)\"")
        }
        config.tokenFile = try ha.string("token_file")
        config.caFile = try ha.string("ca_file")
        if let caFile = config.caFile, !FileManager.default.fileExists(atPath: caFile) {
            // Never repeated when it may be the token, pasted in the wrong key.
            throw ha.invalid("ca_file", TokenShape.looksLikeToken(caFile)
                ? "names no file, and its value looks like a token (not shown here); expected a PEM file of CA certificates"
                : "names \(caFile), which does not exist")
        }
    }

    /// `poll`, `supernotify` and `updates`: how the service follows HA and what it may send.
    private static func readPolling(_ top: ObjectReader, into config: inout Configuration) throws(ConfigurationError) {
        if let poll = try top.object("poll", allowed: ["active_seconds", "idle_seconds"]) {
            config.pollActiveSeconds = try poll.number("active_seconds", in: 1...3600) ?? config.pollActiveSeconds
            config.pollIdleSeconds = try poll.number("idle_seconds", in: 1...3600) ?? config.pollIdleSeconds
        }
        if let supernotify = try top.object("supernotify", allowed: ["mobile_deliveries", "daily_push_limit"]) {
            config.mobileDeliveries = try supernotify.stringList("mobile_deliveries") ?? config.mobileDeliveries
            if config.mobileDeliveries.isEmpty { throw supernotify.invalid("mobile_deliveries", "must name at least one delivery") }
            config.dailyPushLimit = try supernotify.int("daily_push_limit", in: 10...100_000) ?? config.dailyPushLimit
        }
        if let updates = try top.string("updates") {
            guard let mode = Runner.Updates(rawValue: updates) else {
                throw top.invalid("updates", "expects \"events\" or \"poll\", found \"\(updates)\"")
            }
            config.updates = mode
        }
    }

    /// `http: {listen, port, allow}`: the history page and the API.
    private static func readHTTP(_ top: ObjectReader, file: String, into config: inout Configuration) throws(ConfigurationError) {
        guard let http = try top.object("http", allowed: ["listen", "port", "allow"]) else { return }
        config.httpListen = try http.string("listen") ?? config.httpListen
        if !isIPAddress(config.httpListen) {
            throw http.invalid("listen", "expects an IP address like 127.0.0.1, 0.0.0.0 or ::, found \"\(config.httpListen)\"")
        }
        config.httpPort = try http.int("port", in: 0...65535) ?? config.httpPort
        config.httpAllow = try http.stringList("allow") ?? config.httpAllow
        for (index, address) in config.httpAllow.enumerated() where !isIPAddress(address) {
            throw .config("\(file): 'http.allow[\(index)]' expects an IP address like 172.30.32.2, found \"\(address)\"")
        }
    }

    /// `price`: a fixed price per kWh and its currency, and a price entity (docs/REFERENCE.md, "Energy and cost").
    private static func readPrice(_ top: ObjectReader, into config: inout Configuration) throws(ConfigurationError) {
        guard let price = try top.object("price", allowed: ["per_kwh", "currency", "entity"]) else { return }
        config.pricePerKWh = try price.number("per_kwh", in: 0...1_000)
        config.priceCurrency = try price.string("currency").flatMap { $0.isEmpty ? nil : $0 }
        config.priceEntity = try price.string("entity").flatMap { $0.isEmpty ? nil : $0 }
        if let entity = config.priceEntity, !entity.contains(".") {
            throw price.invalid("entity", "expects an entity id like \"sensor.electricity_price\", found \"\(entity)\"")
        }
    }

    private static func readAppliance(_ object: ObjectReader, config: Configuration) throws(ConfigurationError) -> ApplianceConfiguration {
        guard let id = try object.string("id") else {
            throw .config("\(object.file): '\(object.path).id' is required: [A-Za-z0-9_-], 1 to 50 characters")
        }
        guard isValidID(id) else {
            throw object.invalid("id", "expects 1 to 50 of [A-Za-z0-9_-] (it becomes the notification tag), found \"\(id)\"")
        }
        var settings = config.defaultSettings(id: id, name: try object.string("name"))
        settings.icon = try object.string("icon")
        if let icon = settings.icon, !icon.contains(":") {
            throw object.invalid("icon", "expects an icon like \"mdi:dishwasher\", found \"\(icon)\"")
        }
        settings.notifyStart = try object.bool("notify_start") ?? settings.notifyStart
        settings.notifyProgress = try object.bool("notify_progress") ?? settings.notifyProgress
        settings.notifyEnd = try object.bool("notify_end") ?? settings.notifyEnd
        if case .array(let percentages)? = object.tree("progress_steps") {
            // A list is short for {"at": [...]}; an empty one (the add-on's unset list) keeps the default.
            if !percentages.isEmpty {
                settings.steps = try readSteps(.object(["at": .array(percentages)]), file: object.file,
                                               path: object.keyPath("progress_steps"))
            }
        } else if let steps = object.tree("progress_steps") {
            settings.steps = try readSteps(steps, file: object.file, path: object.keyPath("progress_steps"))
        }
        try readTuning(object, into: &settings)
        if let texts = try object.object("texts", allowed: textKeys) {
            settings.texts = try readTexts(texts, over: settings.texts)
        }
        if let profile = try object.string("profile") {
            guard let known = BrandProfile(rawValue: profile) else {
                throw object.invalid("profile", "expects one of \(BrandProfile.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(profile)\"")
            }
            settings.profile = known
        }
        settings.power = try readPower(object, over: settings.power)
        settings.quietHours = try readQuietHours(object, "quiet_hours")
        let (entities, unmapped) = try readEntities(object)
        // A power sensor alone makes a smart plug appliance (docs/CYCLES.md, "Smart plugs").
        let hasProfile = object.has("profile")
        if !hasProfile, entities[.power] != nil, entities[.operationState] == nil, !object.has("operation_state_entity") {
            settings.profile = .plug
        }
        return ApplianceConfiguration(settings: settings, entities: entities, unmapped: unmapped, hasName: object.has("name"),
                                      hasProfile: hasProfile || settings.profile == .plug)
    }

    /// An appliance's timing and presentation keys, over the household's defaults.
    private static func readTuning(_ object: ObjectReader, into settings: inout ApplianceSettings) throws(ConfigurationError) {
        settings.cyclePushLimit = try object.int("cycle_push_limit", in: 3...1000) ?? settings.cyclePushLimit
        settings.dashboard = try object.string("dashboard")
        if object.has("target") { settings.target = try object.stringList("target") ?? [] }
        settings.color = try object.string("color")
        settings.relevance = try object.number("relevance", in: 0...1)
        settings.persistent = try object.bool("persistent") ?? settings.persistent
        settings.fcmHighPriority = try object.bool("fcm_high_priority") ?? settings.fcmHighPriority
        settings.settleSeconds = try object.number("settle_seconds", in: 0...3600) ?? settings.settleSeconds
        settings.minUpdateSeconds = try object.number("min_update_seconds", in: 0...3600) ?? settings.minUpdateSeconds
        settings.finishJitterSeconds = try object.number("finish_jitter_seconds", in: 0...86400) ?? settings.finishJitterSeconds
        settings.temperatureStep = try object.number("temperature_step", in: 0.1...1000) ?? settings.temperatureStep
        settings.heartbeatMinutes = try object.number("heartbeat_minutes", in: 1...1440) ?? settings.heartbeatMinutes
        settings.lostAfterMinutes = try object.number("lost_after_minutes", in: 1...10080) ?? settings.lostAfterMinutes
        settings.finishCorrection = try object.bool("finish_correction") ?? settings.finishCorrection
        settings.unloadReminderMinutes = try object.number("unload_reminder_minutes", in: 0...1440)
        settings.unloadReminderRepeats = try object.int("unload_reminder_repeats", in: 0...20) ?? settings.unloadReminderRepeats
    }

    /// The appliance's entities by role, from `entities: {role: id}` and the flat
    /// `<role>_entity` keys; a role mapped to null is unmapped (discovery leaves it alone).
    private static func readEntities(_ object: ObjectReader) throws(ConfigurationError) -> ([Role: String], Set<Role>) {
        var entities: [Role: String] = [:]
        var unmapped: Set<Role> = []
        if let map = try object.object("entities", allowed: Role.allCases.map(\.rawValue)) {
            for role in Role.allCases where map.has(role.rawValue) {
                guard let entity = try map.string(role.rawValue) else {
                    unmapped.insert(role)
                    continue
                }
                guard isValidEntityID(entity) else {
                    throw map.invalid(role.rawValue, "expects an entity id like \"sensor.dishwasher_operation_state\", found \"\(entity)\"")
                }
                entities[role] = entity
            }
        }
        for role in Role.allCases {
            let key = "\(role.rawValue)_entity"
            guard let entity = try object.string(key) else { continue }
            guard entities[role] == nil, !unmapped.contains(role) else {
                throw object.invalid(key, "names the same role as 'entities.\(role.rawValue)'; give one of them")
            }
            guard isValidEntityID(entity) else {
                throw object.invalid(key, "expects an entity id like \"sensor.dishwasher_operation_state\", found \"\(entity)\"")
            }
            entities[role] = entity
        }
        return (entities, unmapped)
    }

    /// `power: {on_watts, start_seconds, off_watts, off_seconds, zero_watts, quiet_seconds, burst_seconds,
    /// burst_window_seconds}` or the flat `power_on_watts`, …
    private static func readPower(_ object: ObjectReader, over base: PowerSettings) throws(ConfigurationError) -> PowerSettings {
        var power = base
        let nested = try object.object("power", allowed: powerKeys)
        let setters: [String: (WritableKeyPath<PowerSettings, Double>, ClosedRange<Double>)] = [
            "on_watts": (\.onWatts, 0...100_000), "start_seconds": (\.startSeconds, 0...86_400),
            "off_watts": (\.offWatts, 0...100_000), "off_seconds": (\.offSeconds, 0...86_400),
            "zero_watts": (\.zeroWatts, 0...100_000), "quiet_seconds": (\.quietSeconds, 0...604_800),
            "burst_seconds": (\.burstSeconds, 0...86_400), "burst_window_seconds": (\.burstWindowSeconds, 0...86_400),
        ]
        for key in powerKeys {
            guard let (keyPath, range) = setters[key] else { continue }
            let flat = try object.number("power_\(key)", in: range)
            let inGroup = try nested?.number(key, in: range)
            if flat != nil, inGroup != nil {
                throw object.invalid("power_\(key)", "names the same setting as 'power.\(key)'; give one of them")
            }
            if let value = flat ?? inGroup { power[keyPath: keyPath] = value }
        }
        guard power.offWatts <= power.onWatts else {
            throw object.invalid("power", "expects off_watts (\(NumberText.plain(power.offWatts))) at most on_watts (\(NumberText.plain(power.onWatts)))")
        }
        guard power.zeroWatts <= power.offWatts else {
            throw object.invalid("power", "expects zero_watts (\(NumberText.plain(power.zeroWatts))) at most off_watts (\(NumberText.plain(power.offWatts)))")
        }
        return power
    }

    static func readSteps(_ tree: JSONTree, file: String, path: String) throws(ConfigurationError) -> ProgressSteps {
        let object = try ObjectReader(tree, file: file, path: path, allowed: ["step", "fine_from", "fine_step", "at"])
        let steps: ProgressSteps
        // The add-on's Supervisor writes an unset list as `[]`: that means "not given".
        let emptyList: Bool = if case .array(let items)? = object.tree("at") { items.isEmpty } else { false }
        if object.has("at"), !emptyList {
            guard object.tree("step") == nil, object.tree("fine_from") == nil, object.tree("fine_step") == nil else {
                throw .config("\(file): '\(path)' takes either \"at\" or step/fine_from/fine_step, not both")
            }
            guard case .array(let items)? = object.tree("at") else {
                throw object.mismatch("at", "a list of percentages", object.tree("at") ?? .null)
            }
            var values: [Int] = []
            for (index, item) in items.enumerated() {
                guard case .number(let number) = item, number == number.rounded(), (1...99).contains(number) else {
                    throw ObjectReader.error(file: file, path: "\(path).at[\(index)]", expected: "a whole percentage from 1 to 99", found: item)
                }
                values.append(Int(number))
            }
            steps = .at(values)
        } else {
            guard case .regular(let step, let fineFrom, let fineStep) = ProgressSteps.default else {
                preconditionFailure("the default steps are regular")  // invariant: ProgressSteps.default
            }
            steps = .regular(
                step: try object.int("step", in: 1...99) ?? step,
                fineFrom: try object.int("fine_from", in: 1...100) ?? fineFrom,
                fineStep: try object.int("fine_step", in: 1...99) ?? fineStep)
        }
        if let problem = steps.validate().first {
            throw .config("\(file): '\(path)' \(problem)")
        }
        return steps
    }

    static func readTexts(_ object: ObjectReader, over base: Texts) throws(ConfigurationError) -> Texts {
        var texts = base
        let setters = Texts.keyPaths
        for key in textKeys {
            guard let text = try object.string(key), let keyPath = setters[key] else { continue }
            let allowed = Texts.placeholders[key] ?? []
            for placeholder in placeholders(in: text) where !allowed.contains(placeholder) {
                let known = allowed.isEmpty ? "none" : allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")
                throw object.invalid(key, "uses the unknown placeholder {\(placeholder)}; it may use \(known)")
            }
            texts[keyPath: keyPath] = text
        }
        return texts
    }

    static func placeholders(in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            found.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return found
    }

    /// `[A-Za-z0-9_-]{1,50}`.
    public static func isValidID(_ id: String) -> Bool {
        (1...50).contains(id.count) && id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }

    /// An IPv4 or IPv6 address literal (`127.0.0.1`, `::1`).
    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// `domain.object_id` with HA's characters.
    public static func isValidEntityID(_ entity: String) -> Bool {
        let parts = entity.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " \($0)" } ?? ""
            return context.debugDescription + underlying
        default:
            return "\(decoding)"
        }
    }
}

extension ConfigurationLoader {
    /// Progress steps given on the command line as JSON (`replay --steps '{"step":5}'`).
    public static func parseSteps(_ text: String, origin: String) throws(ConfigurationError) -> ProgressSteps {
        let tree: JSONTree
        do {
            tree = try JSONDecoder().decode(JSONTree.self, from: Data(text.utf8))
        } catch {
            throw .usage("\(origin) expects JSON like '{\"step\":5}' or '{\"at\":[25,50,75]}', got '\(text)'")
        }
        return try readSteps(tree, file: origin, path: "progress_steps")
    }
}
