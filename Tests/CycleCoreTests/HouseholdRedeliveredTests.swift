import FoundationEssentials
import Testing
@testable import CycleCore

/// Quiet hours and the people's settings changed while the service runs (the local API,
/// docs/API.md, "The household"): a `redelivered` household event tries every waiting
/// notice again with them, so none is lost and none waits longer than the new settings say.
@Suite struct HouseholdRedeliveredTests {
    /// A dishwasher that ran from 20:00 and finished at 23:30, with quiet hours 22:00-07:00:
    /// its end notification waits. `delivery` changes the household's settings first.
    static func endingAtNight(_ change: (inout DeliverySettings) -> Void = { _ in }) -> Household {
        var delivery = DeliverySettings()
        delivery.quietHours = QuietHours("22:00-07:00")
        change(&delivery)
        var household = Household(dailyLimit: 400, delivery: delivery)
        household.follow(.dishwasher { $0.minUpdateSeconds = 0; $0.settleSeconds = 0 })
        let finish = ISOTime.format(day(23.4))
        _ = household.handle(.observed("dishwasher", Observation(at: day(20), raw: states("run", progress: 0, finish: finish))))
        let ended = household.handle(.observed("dishwasher", Observation(at: day(23.5), raw: states("finished"))))
        #expect(ended.flatMap(\.effects).kinds == [.clear], "the end waits for 07:00")
        return household
    }

    static func ends(_ steps: [Household.Step]) -> [SupernotifyCall] { steps.flatMap(\.effects).calls.filter { $0.kind == .end } }

    @Test func quietHoursSwitchedOffSendTheWaitingEndAtOnce() {
        var household = Self.endingAtNight()
        var off = household.delivery
        off.quietHours = nil
        let steps = household.handle(.redelivered(off, at: day(23.75)))
        #expect(Self.ends(steps).map(\.at) == [day(23.75)])
        #expect(household.handle(.tick(day(31))).flatMap(\.effects).calls.isEmpty, "sent once: nothing at 07:00")
    }

    @Test func aLongerWindowKeepsItWaitingUntilItsEnd() {
        var household = Self.endingAtNight()
        var longer = household.delivery
        longer.quietHours = QuietHours("22:00-08:00")
        let steps = household.handle(.redelivered(longer, at: day(23.75)))
        #expect(Self.ends(steps).isEmpty)
        #expect(steps.flatMap(\.effects).waiting == ["end end: finished: quiet hours, waiting until 2026-11-03T08:00:00Z"])
        #expect(Self.ends(household.handle(.tick(day(31)))).isEmpty, "not at 07:00 any more")
        #expect(Self.ends(household.handle(.tick(day(32)))).map(\.at) == [day(32)])
    }

    @Test func theSameSettingsAgainChangeNothing() {
        var household = Self.endingAtNight()
        #expect(household.handle(.redelivered(household.delivery, at: day(23.75))).isEmpty)
        #expect(Self.ends(household.handle(.tick(day(31)))).map(\.at) == [day(31)])
    }

    @Test func aPersonsLanguageAndQuietHoursFromTheAPI() {
        var household = Self.endingAtNight { $0.people = [PersonSettings(entity: "person.alice")] }
        _ = household.handle(.people(["person.alice": "home"], at: day(23.6)))
        let overrides = DeliveryOverrides(people: ["person.alice": PersonOverrides(quietHours: .some(.off), language: .some("de"))])
        let steps = household.handle(.redelivered(overrides.applied(to: household.delivery), at: day(23.75)))
        let end = Self.ends(steps)
        #expect(end.map(\.at) == [day(23.75)], "her own quiet hours are off")
        #expect(end.first?.body["title"] == .string("Dishwasher fertig"))
        #expect(end.first?.target == ["person.alice"])
    }
}

/// `DeliveryOverrides` over the configuration's settings.
@Suite struct DeliveryOverridesTests {
    @Test func eachKeyReplacesTheConfiguredOneAndLanguagesMakeTheTexts() {
        var base = DeliverySettings()
        base.quietHours = QuietHours("22:00-07:00")
        base.texts.finished = "{name} is done"
        var bob = PersonSettings(entity: "person.bob")
        bob.ownTexts = ["done_in": "{program}: {duration}"]
        bob.texts = bob.resolvedTexts(over: base.texts)
        base.people = [PersonSettings(entity: "person.alice"), bob]
        #expect(base.people[1].texts?.finished == "{name} is done", "own texts go over the household's")

        let overrides = DeliveryOverrides(quietHours: .off, people: [
            "person.alice": PersonOverrides(kinds: [.end], quietHours: .some(.window(QuietHours("23:00-06:00")!))),
            "person.bob": PersonOverrides(language: .some("de")),
            "person.carol": PersonOverrides(language: .some("de")),
        ])
        let applied = overrides.applied(to: base)
        #expect(applied.quietHours == nil)
        #expect(applied.people.map(\.entity) == ["person.alice", "person.bob"], "only configured people")
        #expect(applied.people[0].kinds == [.end] && applied.people[0].quietHours == .window(QuietHours("23:00-06:00")!))
        #expect(applied.people[0].texts == nil)
        #expect(applied.people[1].texts?.finished == "{name} fertig")
        #expect(applied.people[1].texts?.doneIn == "{program}: {duration}", "their own texts still over their language")
        // Back to none of her own, and no language: the household's again.
        let back = PersonOverrides(quietHours: .some(nil), language: .some(nil))
        let cleared = DeliveryOverrides(people: ["person.alice": back, "person.bob": back]).applied(to: applied)
        #expect(cleared.people[0].quietHours == nil)
        #expect(cleared.people[1].texts?.finished == "{name} is done")
        #expect(PersonOverrides(kinds: [.end]).merging(back) == PersonOverrides(kinds: [.end], quietHours: .some(nil), language: .some(nil)))
    }

    @Test(arguments: Texts.languages)
    func everyBuiltInSetKnowsItsPlaceholders(code: String) throws {
        let texts = try #require(Texts.builtIn(code))
        #expect(texts.validate().isEmpty)
        #expect(Set(Texts.keyPaths.keys) == Set(Texts.placeholders.keys))
        #expect(Texts.builtIn("fr") == nil)
    }
}
