import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
import FoundationEssentials
import LocalTime

/// `cycletrack check`: is everything in place to run? Prints one row per item and the
/// appliances it would track; exit 0 only when all is well (69 when HA can't be reached).
struct CheckCommand {
    static let help = """
        usage: cycletrack check [--config FILE] [--format table|json]

        Validates the configuration, reaches Home Assistant and confirms: the token, the
        HA version, that supernotify.notify exists, that the deliveries named in
        supernotify.mobile_deliveries are Supernotify deliveries (where Supernotify can
        say), and that each configured entity exists. Then lists the appliances it would
        track, and for each smart plug appliance what it learned of itself (docs/PLUGS.md).
        Exit 0 only when all is well, 1 when something failed, 69 when Home Assistant
        can't be reached.

          --config FILE        the configuration (found as 'run' finds it)
          --format table|json  table (default), or one JSON object for scripts:
                               {"ok": ..., "checks": [{"check","result","detail"}], "appliances": [...]}

        """

    var configPath: String?
    var json: Bool
    let environment: [String: String]

    init(arguments: [String], environment: [String: String]) throws(CommandError) {
        let parsed = try Arguments(arguments, valued: ["config", "format"])
        guard parsed.positionals.isEmpty else { throw .usage("check takes no arguments, got '\(parsed.positionals[0])'") }
        configPath = parsed.value("config")
        json = try parsed.choice("format", ["table", "json"], default: "table") == "json"
        self.environment = environment
    }

    /// One row of the report, as the parts in other files give it.
    struct Row: Equatable {
        var check: String
        var ok: Bool?
        var detail: String
    }

    /// The rows of the report: each item ok, failed, or not checked (nil: it can't be
    /// told from here, which fails nothing).
    private struct Report {
        var rows: [(check: String, ok: Bool?, detail: String)] = []
        var failed: Bool { rows.contains { $0.ok == false } }

        mutating func add(_ item: String, ok: Bool?, _ detail: String) {
            rows.append((item, ok, detail))
        }
    }

    func run() async throws(CommandError) -> Int32 {
        var report = Report()
        let config = try configured { () throws(ConfigurationError) in try ConfigurationLoader.load(explicit: configPath, environment: environment) }
        report.add("config", ok: true, config.source == "defaults" ? "no file found: defaults" : "\(config.source) is valid")
        checkTimeZone(into: &report)
        let server = await localServerRow(config)
        report.add(server.check, ok: server.ok, server.detail)
        let access = try configured { () throws(ConfigurationError) in try HomeAssistantAccess.resolve(config, environment: environment) }
        report.add("token", ok: true, "from \(access.tokenSource)")
        let client = HomeAssistantClient(baseURL: access.url, token: access.token,
                                         http: HTTPClient(configuration: .init(connectTimeout: 5, totalTimeout: 15, caFile: config.caFile)))
        do {
            let ha = try await client.config()
            report.add("home assistant", ok: true, "\(access.url) answers, version \(ha.version)")
        } catch {
            let unreachable: Bool = if case .unreachable = error { true } else { false }
            report.add("home assistant", ok: false, error.description)
            return finish(report, appliances: nil, status: unreachable ? ExitCode.unavailable.rawValue : ExitCode.failure.rawValue)
        }
        await checkSupernotify(config, client: client, into: &report)
        let discovery = await discover(config, client: client, into: &report)
        let appliances: [TrackedAppliance]
        do throws(CommandError) {
            appliances = try configured { () throws(ConfigurationError) in
                try ApplianceDirectory.resolve(config, discovered: discovery.devices ?? (config.discover ? [] : nil))
            }
        } catch {
            report.add("appliances", ok: false, error.message)
            return finish(report, appliances: nil, status: ExitCode.failure.rawValue)
        }
        let entities = appliances.flatMap { Array($0.entities.values) }
        await checkUpdates(config, entities: entities, client: client, into: &report)
        await checkEntities(appliances, client: client, into: &report)
        for row in await peopleRows(config, client: client) { report.add(row.check, ok: row.ok, row.detail) }
        addSettings(appliances, config: config, into: &report)
        if appliances.isEmpty {
            report.add("appliances", ok: false, nothingToTrack(config, discoveryError: discovery.error))
        }
        return finish(report, appliances: appliances, status: report.failed ? ExitCode.failure.rawValue : ExitCode.ok.rawValue)
    }

    /// That `supernotify.notify` exists, and then the deliveries named.
    private func checkSupernotify(_ config: Configuration, client: HomeAssistantClient, into report: inout Report) async {
        do {
            let hasNotify = try await client.hasService(domain: "supernotify", service: "notify")
            report.add("supernotify.notify", ok: hasNotify,
                       hasNotify ? "the action exists" : "not found: install Supernotify 2.3+ and set up a mobile_push delivery")
            if hasNotify { await checkDeliveries(config.mobileDeliveries, client: client, into: &report) }
        } catch {
            report.add("supernotify.notify", ok: false, error.description)
        }
    }

    /// The devices discovery finds (nil when it is off or failed), and why it failed.
    private func discover(_ config: Configuration, client: HomeAssistantClient,
                          into report: inout Report) async -> (devices: [DiscoveredDevice]?, error: HomeAssistantError?) {
        guard config.discover else { return (nil, nil) }
        do {
            let found = try await client.discoverDevices()
            let seen = found.devices.count + found.skipped.count
            report.add("discovery", ok: true, seen == 0 ? "no device of a known brand found"
                       : "saw \(seen) devices: \(found.devices.count) followed, \(found.skipped.count) left out")
            for line in found.lines {
                report.add("  \(line.label)", ok: true, line.detail)
            }
            return (found.devices, nil)
        } catch {
            report.add("discovery", ok: false, error.description)
            return (nil, error)
        }
    }

    /// How `run` will follow the entities: polling, or HA's WebSocket if it answers.
    private func checkUpdates(_ config: Configuration, entities: [String], client: HomeAssistantClient,
                              into report: inout Report) async {
        let polling = "every \(NumberText.plain(config.pollActiveSeconds)) s while a cycle runs, \(NumberText.plain(config.pollIdleSeconds)) s otherwise"
        switch config.updates {
        case .poll:
            report.add("updates", ok: true, "poll ('updates' is \"poll\"): run asks HA \(polling)")
        case .events:
            do {
                let socket = try await client.subscribe(entityIDs: Array(Set(entities)).sorted(), registries: [])
                socket.close()
                report.add("updates", ok: true, "events: HA's WebSocket API answers at \(socket.url); run reacts to each change at once")
            } catch {
                // Not a failure: run polls instead, and says so once.
                report.add("updates", ok: true, "polling \(polling): the WebSocket API can't be used (\(error.description))")
            }
        }
    }

    /// One row per configured entity of each appliance: its state, or that HA has no such entity.
    private func checkEntities(_ appliances: [TrackedAppliance], client: HomeAssistantClient, into report: inout Report) async {
        var states: [String: EntityState?] = [:]
        do {
            states = try await client.states(of: appliances.flatMap { Array($0.entities.values) })
        } catch {
            report.add("entities", ok: false, error.description)
        }
        for appliance in appliances {
            for role in appliance.entities.keys.sorted() {
                guard let entity = appliance.entities[role] else { continue }
                let found = states[entity] ?? nil
                report.add("  \(appliance.id).\(role.rawValue)", ok: found != nil,
                           found.map { "\(entity) = \($0.value)" } ?? "\(entity) does not exist in Home Assistant")
            }
        }
    }

    private func nothingToTrack(_ config: Configuration, discoveryError: HomeAssistantError?) -> String {
        switch (config.discover, discoveryError) {
        case (false, _): "nothing to track: configure 'appliances' or turn on 'discover'"
        case (true, .unauthorized?): "nothing to track: discovery was refused (the token); fix the token, or configure 'appliances'"
        case (true, _?): "nothing to track: discovery failed (above); configure 'appliances' or fix what discovery reported"
        case (true, nil): "nothing to track: discovery found no device of a known brand; configure 'appliances'"
        }
    }

    /// One row per tunable setting of each appliance: its value in effect and its source
    /// (config, api override, default), the API's changes read from the history `run` uses.
    private func addSettings(_ appliances: [TrackedAppliance], config: Configuration, into report: inout Report) {
        let database = environment["CYCLETRACK_DB"] ?? config.database ?? "cycletrack.sqlite"
        let stored = SettingsSources.stored(database)
        if let problem = stored.problem { report.add("settings", ok: nil, "API changes not read (\(problem))") }
        for appliance in appliances {
            let defaults = config.defaultSettings(id: appliance.id, name: appliance.settings.name)
            let rows = SettingsSources.rows(base: appliance.settings, defaults: defaults,
                                            overrides: stored.overrides[appliance.id] ?? ApplianceOverrides())
            for row in rows { report.add("  \(appliance.id).\(row.key)", ok: true, "\(row.value) (\(row.source))") }
        }
        let inEffect = appliances.map { (stored.overrides[$0.id] ?? ApplianceOverrides()).applied(to: $0.settings) }
        for row in Self.laundryRows(inEffect) { report.add(row.check, ok: row.ok, row.detail) }
        addLearnedPlugs(appliances, database: database, into: &report)
    }

    /// One row per smart plug appliance: what it learned of itself (docs/PLUGS.md), as `run` last saved it.
    private func addLearnedPlugs(_ appliances: [TrackedAppliance], database: String, into report: inout Report) {
        let plugs = appliances.filter { $0.settings.profile == .plug }
        guard !plugs.isEmpty else { return }
        let store = FileManager.default.fileExists(atPath: database) ? try? HistoryStore(path: database, mode: .readOnly) : nil
        for plug in plugs {
            let kind = PlugKind.of(id: plug.id, name: plug.settings.name)
            let learned = try? store.flatMap { store throws(StoreError) in
                try CycleRecorder.savedPlugSignature(store, applianceID: plug.id)
            }
            let detail = (learned ?? nil)?.summary(kind: kind)
                ?? "kind \(kind.rawValue), nothing learned yet (run has not followed it): the defaults for a new plug"
            report.add("  \(plug.id) learned", ok: nil, detail)
        }
    }

    /// Whether each name in `supernotify.mobile_deliveries` is a delivery Supernotify
    /// has, where Supernotify can say (its `enquire_configuration` action).
    /// A `TZ` naming no zone this system knows would silently be UTC: said, and a failure.
    private func checkTimeZone(into report: inout Report) {
        let zone = LocalTimeZone.resolve(environment: environment)
        if let unreadable = zone.unreadable {
            report.add("time zone", ok: false, "TZ=\(unreadable) names no time zone this system knows; times would be shown in UTC (set TZ to a zone like Europe/Berlin)")
        } else {
            report.add("time zone", ok: true, "times are shown in \(zone.name)")
        }
    }

    private func checkDeliveries(_ names: [String], client: HomeAssistantClient, into report: inout Report) async {
        let item = "mobile_deliveries"
        let wanted = names.joined(separator: ", ")
        switch await client.supernotifyDeliveries() {
        case .cannotSay(let why):
            report.add(item, ok: nil, "\(wanted): not checked (Supernotify can't say: \(why))")
        case .listed(let deliveries):
            let missing = names.filter { !deliveries.contains($0) }
            if missing.isEmpty {
                report.add(item, ok: true, "\(wanted): Supernotify has \(names.count == 1 ? "it" : "them")")
            } else {
                let known = deliveries.isEmpty ? "none" : deliveries.joined(separator: ", ")
                report.add(item, ok: false, "\(missing.joined(separator: ", ")) is not a Supernotify delivery (it has: \(known)); "
                           + "set supernotify.mobile_deliveries to the delivery that reaches the Companion app")
            }
        }
    }

    /// Prints the report (a table, or one JSON object) and the appliances it would track
    /// (nil: it stopped before it knew), and returns `status`.
    private func finish(_ report: Report, appliances tracking: [TrackedAppliance]?, status: Int32) -> Int32 {
        let appliances = tracking ?? []
        func result(_ ok: Bool?) -> String { ok.map { $0 ? "ok" : "FAIL" } ?? "-" }
        if json {
            let checks = report.rows.map { row in
                "{\"check\": \(JSONValue.quoted(row.check.trimmingLeadingSpaces())), \"result\": \(JSONValue.quoted(row.ok.map { $0 ? "ok" : "fail" } ?? "not checked")), "
                    + "\"detail\": \(JSONValue.quoted(row.detail))}"
            }
            let tracked = appliances.map { appliance in
                "{\"id\": \(JSONValue.quoted(appliance.id)), \"name\": \(JSONValue.quoted(appliance.settings.name)), "
                    + "\"from\": \(JSONValue.quoted(appliance.origin)), "
                    + "\"profile\": \(JSONValue.quoted(appliance.settings.profile.rawValue)), "
                    + "\"operation_state\": \(appliance.entities[.operationState].map(JSONValue.quoted) ?? "null")}"
            }
            CommandLineTool.emit("{\"ok\": \(status == ExitCode.ok.rawValue), \"status\": \(status),\n"
                                 + " \"checks\": [\n  " + checks.joined(separator: ",\n  ") + "\n ],\n"
                                 + " \"appliances\": [" + (tracked.isEmpty ? "" : "\n  " + tracked.joined(separator: ",\n  ") + "\n ") + "]}")
            return status
        }
        var table = TextTable([("check", .left), ("result", .left), ("detail", .left)])
        for row in report.rows { table.rows.append([row.check, result(row.ok), row.detail]) }
        print(table.text, terminator: "")
        guard tracking != nil else { return status }
        print("")
        var tracked = TextTable([("appliance", .left), ("name", .left), ("from", .left), ("profile", .left),
                                 ("state entity", .left)])
        for appliance in appliances {
            // A smart plug is read from its power sensor.
            let entity = appliance.settings.profile == .plug ? appliance.entities[.power] : appliance.entities[.operationState]
            tracked.rows.append([appliance.id, appliance.settings.name, appliance.origin, appliance.settings.profile.rawValue,
                                 entity ?? "-"])
        }
        print(tracked.text, terminator: "")
        return status
    }
}

extension String {
    fileprivate func trimmingLeadingSpaces() -> String { String(drop { $0 == " " }) }
}
