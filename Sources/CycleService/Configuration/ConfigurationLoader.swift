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
    /// An appliance's keys: those read by hand, the declared settings the file sets
    /// (`ApplianceSetting.all`), and the flat entity and power keys.
    static let applianceKeys = [
        "id", "name", "icon", "entities", "progress_steps", "dashboard", "target", "texts", "color", "profile", "power",
        "quiet_hours",
    ] + ApplianceSetting.all.filter(\.configurable).map(\.key) + flatEntityKeys + flatPowerKeys
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
        "hours", "minutes", "action_required_because", "door_open", "longer_than_usual", "progress_stuck",
        "error_because", "error", "starts_at",
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
