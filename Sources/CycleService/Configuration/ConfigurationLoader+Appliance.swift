import CycleCore
import FoundationEssentials

/// An appliance's part of the configuration: its id, settings, entities, power
/// detection, progress steps and texts (docs/CONFIGURATION.md, "Appliances").
extension ConfigurationLoader {
    /// `appliances`: each read over the household's defaults; ids are unique.
    static func readAppliances(_ top: ObjectReader, file: String, config: Configuration) throws(ConfigurationError) -> [ApplianceConfiguration] {
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

    /// An appliance's declared settings (`ApplianceSetting.all`) and its presentation keys,
    /// over the household's defaults.
    private static func readTuning(_ object: ObjectReader, into settings: inout ApplianceSettings) throws(ConfigurationError) {
        for setting in ApplianceSetting.all where setting.configurable {
            if let value = try setting.read(object) { setting.set(value, in: &settings) }
        }
        settings.dashboard = try object.string("dashboard")
        if object.has("target") { settings.target = try object.stringList("target") ?? [] }
        settings.color = try object.string("color")
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
}
