import CycleCore
import FoundationEssentials
import Testing
@testable import CycleService

/// `quiet_hours`, `presence_wait_hours` and `people` (docs/REFERENCE.md, "Quiet hours and people").
@Suite struct ConfigurationDeliveryTests {
    private func parse(_ json: String) throws -> Configuration {
        try ConfigurationLoader.parse(Data(json.utf8), file: "c.json")
    }

    private func message(_ json: String) -> String? {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationLoader.parse(Data(json.utf8), file: "c.json") }
        return error?.message
    }

    @Test func quietHoursPeopleAndTheirChoices() throws {
        let config = try parse("""
            {"quiet_hours": "22:00-07:00", "presence_wait_hours": 6,
             "texts": {"minutes": "min."},
             "people": [
               {"entity": "person.alice"},
               {"entity": "person.bob", "target": ["mobile_app_bobs_phone"], "kinds": ["end", "reminder"],
                "quiet_hours": "off", "texts": {"finished": "{name} fertig"}}],
             "appliances": [{"id": "oven", "quiet_hours": "off"}, {"id": "washer", "quiet_hours": "23:30-06:15"}, {"id": "dryer"}]}
            """)
        #expect(config.delivery.quietHours == QuietHours("22:00-07:00"))
        #expect(config.delivery.presenceWaitSeconds == 6 * 3600)
        let alice = config.delivery.people[0]
        #expect(alice.entity == "person.alice" && alice.target == ["person.alice"] && alice.kinds == PersonSettings.allKinds)
        #expect(alice.quietHours == nil && alice.texts == nil)
        let bob = config.delivery.people[1]
        #expect(bob.target == ["mobile_app_bobs_phone"] && bob.kinds == [.end, .reminder] && bob.quietHours == .off)
        #expect(bob.texts?.finished == "{name} fertig")
        #expect(bob.texts?.minutes == "min.", "a person's texts go over the global ones")
        #expect(config.appliances.map(\.settings.quietHours) == [.off, .window(QuietHours("23:30-06:15")!), nil])
    }

    @Test func theDefaultsAndTheAddOnsEmptyValuesChangeNothing() throws {
        let none = try parse("{}")
        #expect(none.delivery.quietHours == nil && none.delivery.people.isEmpty && none.delivery.presenceWaitSeconds == 12 * 3600)
        let addOn = try parse(#"{"quiet_hours": "", "people": [], "presence_wait_hours": 12, "appliances": [{"id": "a", "quiet_hours": ""}]}"#)
        #expect(addOn.delivery.quietHours == nil && addOn.delivery.people.isEmpty)
        #expect(addOn.appliances.first?.settings.quietHours == nil, "empty: the household's, as the add-on says")
        let person = try parse(#"{"people": [{"entity": "person.alice", "target": [], "kinds": []}]}"#)
        #expect(person.delivery.people.first?.target == ["person.alice"], "an empty list is the add-on's unset list")
        #expect(person.delivery.people.first?.kinds == PersonSettings.allKinds)
    }

    @Test(arguments: [
        (#"{"quiet_hours": "22-07"}"#,
         #"c.json: 'quiet_hours' expects a local-time window like "22:00-07:00" (HH:MM-HH:MM, start and end differ) or "off", found "22-07""#),
        (#"{"appliances": [{"id": "a", "quiet_hours": "7:00-8:00"}]}"#,
         #"c.json: 'appliances[0].quiet_hours' expects a local-time window like "22:00-07:00" (HH:MM-HH:MM, start and end differ) or "off", found "7:00-8:00""#),
        (#"{"people": [{"entity": "sensor.alice"}]}"#,
         #"c.json: 'people[0].entity' expects a person entity like "person.alice", found "sensor.alice""#),
        (#"{"people": [{"target": ["x"]}]}"#,
         #"c.json: 'people[0].entity' is required: a person entity like "person.alice""#),
        (#"{"people": [{"entity": "person.a", "kinds": ["end", "quiet"]}]}"#,
         #"c.json: 'people[0].kinds' expects start, progress, end or reminder, found "quiet""#),
        (#"{"people": [{"entity": "person.a"}, {"entity": "person.a"}]}"#,
         #"c.json: 'people[1].entity' repeats 'person.a'; each person once"#),
        (#"{"people": [{"entity": "person.a", "texts": {"finished": "{who}"}}]}"#,
         "c.json: 'people[0].texts.finished' uses the unknown placeholder {who}; it may use {name}"),
        (#"{"presence_wait_hours": 200}"#,
         "c.json: 'presence_wait_hours' expects a whole number from 1 to 168, found the number 200"),
        (#"{"people": [{"entity": "person.a", "langauge": "de"}]}"#,
         "c.json: unknown key 'people[0].langauge' (did you mean 'language'?)"),
    ])
    func badValuesNameTheKey(json: String, expected: String) {
        #expect(message(json) == expected)
    }
}
