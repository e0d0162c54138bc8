import CycleCore
import FoundationEssentials
import HomeAssistantAPI
import Testing
@testable import CycleCommands
@testable import CycleService

/// `check`'s rows for the people: each `person.*` entity exists in Home Assistant, and the
/// household's and each person's settings in effect with their sources.
@Suite struct CheckPeopleTests {
    static let config = """
        {"quiet_hours": "22:00-07:00",
         "people": [{"entity": "person.alice"}, {"entity": "person.bob", "kinds": ["end"], "language": "de"}]}
        """

    @Test func anUnknownPersonIsAnErrorNamingThePersonAndTheKey() throws {
        let config = try ConfigurationLoader.parse(Data(Self.config.utf8), file: "c.json")
        let states: [String: EntityState?] = ["person.alice": EntityState(state: "home"), "person.bob": Optional<EntityState>.none]
        let rows = CheckCommand.presenceRows(config.delivery.people, states: states)
        #expect(rows == [CheckCommand.Row]([
            .init(check: "  person.alice", ok: true, detail: "person.alice = home"),
            .init(check: "  person.bob", ok: false, detail: "person.bob (people[1].entity) does not exist in Home Assistant"),
        ]))
    }

    @Test func theSettingsInEffectWithTheirSources() throws {
        let config = try ConfigurationLoader.parse(Data(Self.config.utf8), file: "c.json")
        let overrides = DeliveryOverrides(quietHours: .off, people: ["person.bob": PersonOverrides(language: .some(nil))])
        let rows = CheckCommand.householdRows(config.delivery, overrides: overrides)
        #expect(rows.map { "\($0.check) \($0.detail)" } == [
            #"quiet_hours "off" (api override)"#,
            #"  person.alice.kinds ["start","progress","end","reminder"] (default)"#,
            "  person.alice.quiet_hours null (default)",
            "  person.alice.language null (default)",
            #"  person.bob.kinds ["end"] (config)"#,
            "  person.bob.quiet_hours null (default)",
            "  person.bob.language null (api override)",
        ])
        #expect(CheckCommand.householdRows(DeliverySettings(), overrides: DeliveryOverrides()).isEmpty, "nothing to show")
    }
}
