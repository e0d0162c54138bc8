import CycleCore
import FoundationEssentials

/// `quiet_hours`, `presence_wait_hours` and `people` (docs/REFERENCE.md, "Quiet hours and
/// people"): read into the household's `DeliverySettings`.
extension ConfigurationLoader {
    static let personKeys = ["entity", "target", "kinds", "quiet_hours", "language", "texts"]

    /// Reads the top-level keys into `config.delivery`.
    static func readDelivery(_ top: ObjectReader, into config: inout Configuration) throws(ConfigurationError) {
        config.delivery.texts = config.texts
        if let window = try readQuietHours(top, "quiet_hours"), case .window(let hours) = window {
            config.delivery.quietHours = hours
        }
        if let hours = try top.int("presence_wait_hours", in: 1...168) {
            config.delivery.presenceWaitSeconds = Double(hours) * 3600
        }
        guard let list = top.tree("people") else { return }
        guard case .array(let items) = list else { throw top.mismatch("people", "a list of people", list) }
        for (index, item) in items.enumerated() {
            let object = try ObjectReader(item, file: top.file, path: "people[\(index)]", allowed: personKeys)
            let person = try readPerson(object, texts: config.texts)
            if config.delivery.people.contains(where: { $0.entity == person.entity }) {
                throw object.invalid("entity", "repeats '\(person.entity)'; each person once")
            }
            config.delivery.people.append(person)
        }
    }

    private static func readPerson(_ object: ObjectReader, texts: Texts) throws(ConfigurationError) -> PersonSettings {
        guard let entity = try object.string("entity") else {
            throw .config("\(object.file): '\(object.path).entity' is required: a person entity like \"person.alice\"")
        }
        guard entity.hasPrefix("person."), isValidEntityID(entity) else {
            throw object.invalid("entity", "expects a person entity like \"person.alice\", found \"\(entity)\"")
        }
        let target = try object.stringList("target")
        var person = PersonSettings(entity: entity, target: target.flatMap { $0.isEmpty ? nil : $0 })
        if let kinds = try object.stringList("kinds"), !kinds.isEmpty {
            var chosen: Set<CallKind> = []
            for name in kinds {
                guard let kind = CallKind(rawValue: name), PersonSettings.allKinds.contains(kind) else {
                    throw object.invalid("kinds", "expects start, progress, end or reminder, found \"\(name)\"")
                }
                chosen.insert(kind)
            }
            person.kinds = chosen
        }
        person.quietHours = try readQuietHours(object, "quiet_hours")
        person.language = try readLanguage(object, "language")
        if let own = try object.object("texts", allowed: textKeys) {
            _ = try readTexts(own, over: texts)  // each placeholder checked, the error naming the key
            for key in textKeys {
                if let text = try own.string(key) { person.ownTexts[key] = text }
            }
        }
        person.texts = person.resolvedTexts(over: texts)
        return person
    }

    /// A built-in text set's code (`Texts.languages`); `""` (the add-on's unset text) for none.
    static func readLanguage(_ object: ObjectReader, _ key: String) throws(ConfigurationError) -> String? {
        guard let code = try object.string(key), !code.isEmpty else { return nil }
        guard Texts.languages.contains(code) else {
            throw object.invalid(key, "expects one of \(Texts.languages.joined(separator: ", ")) (the built-in texts), found \"\(code)\"")
        }
        return code
    }

    /// `"22:00-07:00"`, or `"off"` for none; an empty string (the add-on's unset text) is
    /// no setting of its own, as the add-on's options say: the household's, or none there.
    static func readQuietHours(_ object: ObjectReader, _ key: String) throws(ConfigurationError) -> QuietOverride? {
        guard let text = try object.string(key), !text.isEmpty else { return nil }
        if text == "off" { return .off }
        guard let window = QuietHours(text) else {
            throw object.invalid(key, "expects a local-time window like \"22:00-07:00\" (HH:MM-HH:MM, start and end differ) or \"off\", found \"\(text)\"")
        }
        return .window(window)
    }
}
