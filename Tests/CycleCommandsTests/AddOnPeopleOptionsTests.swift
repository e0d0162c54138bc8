import CycleCore
import Foundation
import Testing
@testable import CycleService

/// The add-on's `people` options (cycletrack/config.yaml) and what the config loader makes
/// of the options.json the Supervisor writes from them: the person keys but `texts` (a nested
/// group the Supervisor would require in every entry), each optional but `entity`, and
/// `language` choosing among the built-in text sets.
@Suite struct AddOnPeopleOptionsTests {
    private static func person() throws -> MiniYAML {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("cycletrack/config.yaml")
        let config = try MiniYAML.parse(String(contentsOf: file, encoding: .utf8))
        return try #require(config["schema"]?["people"]?.items.first, "schema.people is not a list of objects")
    }

    @Test func aPersonOffersEveryKeyButTextsAndOnlyTheEntityIsRequired() throws {
        let person = try Self.person()
        #expect(Set(person.keys) == Set(ConfigurationLoader.personKeys).subtracting(["texts"]))
        expectOnlyRequired(person, "people", "entity")
        #expect(person["language"] == .scalar("list(\(Texts.languages.joined(separator: "|")))?"), "the built-in sets")
    }

    @Test func theOptionsTheSupervisorWritesAreTheConfiguration() throws {
        // As the Supervisor writes them: the add-on's defaults, each person with the keys set.
        let options = """
            {"quiet_hours": "", "presence_wait_hours": 12, "texts": {}, "target": [],
             "people": [{"entity": "person.alice", "language": "de"},
                        {"entity": "person.bob", "kinds": ["end", "reminder"], "quiet_hours": "off", "language": "en",
                         "target": ["mobile_app_bobs_phone"]},
                        {"entity": "person.carol", "kinds": [], "target": [], "quiet_hours": ""}]}
            """
        let config = try ConfigurationLoader.parse(Data(options.utf8), file: "/data/options.json")
        #expect(config.delivery.quietHours == nil)
        let people = config.delivery.people
        #expect(people.map(\.entity) == ["person.alice", "person.bob", "person.carol"])
        #expect(people[0].language == "de" && people[0].texts == Texts.german && people[0].kinds == PersonSettings.allKinds)
        #expect(people[1].language == "en" && people[1].texts == Texts() && people[1].kinds == [.end, .reminder])
        #expect(people[1].quietHours == .off && people[1].target == ["mobile_app_bobs_phone"])
        #expect(people[2].texts == nil && people[2].kinds == PersonSettings.allKinds && people[2].target == ["person.carol"])
        #expect(people[2].quietHours == nil, "the add-on's empty text: the household's quiet hours, as its options say")
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse(Data(#"{"people": [{"entity": "person.alice", "language": "german"}]}"#.utf8),
                                          file: "/data/options.json")
        }
        #expect(error?.message.contains("'people[0].language' expects one of en, de") == true)
    }
}

/// The Supervisor's rule for a list entry of the add-on's schema: a key left out must have
/// a type ending in "?" (for a list, its element's); a nested mapping left out is always
/// refused. Every key of `entry` but `required` must be one that may be left out.
func expectOnlyRequired(_ entry: MiniYAML, _ list: String, _ required: String) {
    for key in entry.keys.sorted() where key != required {
        let type: MiniYAML? = if case .list(let items)? = entry[key] { items.first } else { entry[key] }
        guard case .scalar(let text)? = type else {
            Issue.record("\(list)[].\(key) is a nested group: the Supervisor would require it")
            continue
        }
        #expect(text.hasSuffix("?"), "\(list)[].\(key) is required (\(text))")
    }
}
