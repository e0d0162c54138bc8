import CycleCore
import FoundationEssentials
import Testing
@testable import CycleService

/// A person's `language` in the configuration, and the household's and people's settings
/// as the API and the store take and show them (docs/API.md, "The household").
@Suite struct HouseholdSettingsTests {
    private func parse(_ json: String) throws -> Configuration {
        try ConfigurationLoader.parse(Data(json.utf8), file: "c.json")
    }

    @Test func aPersonsLanguageIsABuiltInSetUnderTheirOwnTexts() throws {
        let config = try parse("""
            {"texts": {"finished": "{name} is done"},
             "people": [{"entity": "person.alice", "language": "de", "texts": {"done_in": "{program} nach {duration}"}},
                        {"entity": "person.bob", "language": ""}, {"entity": "person.carol", "language": "en"}]}
            """)
        let alice = config.delivery.people[0]
        #expect(alice.language == "de" && alice.texts?.finished == "{name} fertig")
        #expect(alice.texts?.doneIn == "{program} nach {duration}" && alice.ownTexts == ["done_in": "{program} nach {duration}"])
        #expect(config.delivery.people[1].language == nil && config.delivery.people[1].texts == nil, "the add-on's empty text")
        #expect(config.delivery.people[2].texts == Texts(), "English, not the household's own texts")
        #expect(config.delivery.texts.finished == "{name} is done")
        let error = #expect(throws: ConfigurationError.self) {
            try parse(#"{"people": [{"entity": "person.alice"}, {"entity": "person.bob", "language": "fr"}]}"#)
        }
        #expect(error?.message == "c.json: 'people[1].language' expects one of en, de (the built-in texts), found \"fr\"")
    }

    @Test func storedRowsGiveBackTheSameOverrides() throws {
        var overrides = DeliveryOverrides(quietHours: .window(QuietHours("22:30-06:00")!))
        overrides.people["person.alice"] = PersonOverrides(kinds: [.end, .start], quietHours: .some(nil), language: .some("de"))
        overrides.people["person.bob"] = PersonOverrides(quietHours: .some(.off), language: .some(nil))
        var rows = ["household": HouseholdJSON.stored(overrides)]
        for (entity, person) in overrides.people { rows[entity] = HouseholdJSON.stored(person) }
        #expect(rows["household"] == ["quiet_hours": #""22:30-06:00""#])
        #expect(rows["person.alice"] == ["kinds": #"["start","end"]"#, "quiet_hours": "null", "language": #""de""#])
        #expect(try HouseholdJSON.overrides(stored: rows) == overrides)
        #expect(throws: ConfigurationError.self) { try HouseholdJSON.overrides(stored: ["person.alice": ["colour": "1"]]) }
    }

    @Test func bodiesAreReadStrictly() throws {
        #expect(try HouseholdJSON.householdChange(Array(#"{"reset":true}"#.utf8)) == nil)
        #expect(try HouseholdJSON.householdChange(Array(#"{"quiet_hours":"off"}"#.utf8)) == DeliveryOverrides(quietHours: .off))
        #expect(try HouseholdJSON.personChange(Array(#"{"language":null}"#.utf8)) == PersonOverrides(language: .some(nil)))
        #expect(try HouseholdJSON.personChange(Array("{}".utf8)) == PersonOverrides())
        let error = #expect(throws: ConfigurationError.self) { try HouseholdJSON.personChange(Array(#"{"kinds":"end","x":1}"#.utf8)) }
        #expect(error?.message.contains("unknown key 'x'") == true)
    }

    /// The configuration takes one kind as a string; a body takes a list only, and a null
    /// (which would change nothing) is refused, each naming `kinds` (issue 31, item 14).
    @Test(arguments: [#"{"kinds":"end"}"#, #"{"kinds":null}"#, #"{"kinds":{"end":true}}"#])
    func aPersonsKindsAreAList(body: String) {
        let error = #expect(throws: ConfigurationError.self) { try HouseholdJSON.personChange(Array(body.utf8)) }
        #expect(error?.message.contains("'kinds' expects a list") == true, "\(error?.message ?? "")")
    }

    @Test func eachSettingSaysWhereItComesFrom() throws {
        let config = try parse("""
            {"quiet_hours": "22:00-07:00",
             "people": [{"entity": "person.alice"}, {"entity": "person.bob", "kinds": ["end"], "language": "de"}]}
            """)
        let overrides = DeliveryOverrides(people: ["person.alice": PersonOverrides(quietHours: .some(.off))])
        let snapshot = HouseholdSnapshot(base: config.delivery, overrides: overrides)
        #expect(snapshot.settings["quiet_hours"] == .string("22:00-07:00") && snapshot.sources["quiet_hours"] == .config)
        let alice = try #require(snapshot.person("person.alice"))
        #expect(alice.settings.compactJSON() == #"{"kinds":["start","progress","end","reminder"],"quiet_hours":"off","language":null}"#)
        #expect(alice.sources == ["kinds": .default, "quiet_hours": .api, "language": .default])
        let bob = try #require(snapshot.person("person.bob"))
        #expect(bob.sources == ["kinds": .config, "quiet_hours": .default, "language": .config])
        #expect(HouseholdSnapshot(base: DeliverySettings(), overrides: DeliveryOverrides()).sources == ["quiet_hours": .default])
    }
}
