import FoundationEssentials
import Testing
@testable import CycleCore

/// Alice and Bob, as `people` configures them, with `change` applied to each.
func household(quietHours: String? = nil, _ change: (inout PersonSettings) -> Void = { _ in }) -> DeliverySettings {
    var delivery = DeliverySettings()
    delivery.quietHours = quietHours.flatMap(QuietHours.init)
    delivery.people = ["person.alice", "person.bob"].map { entity in
        var person = PersonSettings(entity: entity)
        change(&person)
        return person
    }
    return delivery
}

/// The people's states by time: who is home from when (nil: never).
func presence(alice: Date?, bob: Date?) -> (Date) -> [String: String] {
    { date in
        [
            "person.alice": alice.map { date >= $0 ? "home" : "not_home" } ?? "not_home",
            "person.bob": bob.map { date >= $0 ? "home" : "not_home" } ?? "not_home",
        ]
    }
}

extension SupernotifyCall {
    var target: [String]? {
        guard case .array(let items)? = body["target"] else { return nil }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}

/// docs/PUSHES.md, "Presence": replayed traces carrying `person.*` states.
@Suite struct PresenceTests {
    @Test func nobodyHomeAtTheEndThenAliceArrivesTwoHoursLaterAndOnlySheGetsIt() throws {
        let lines = cycleTrace(start: day(10), end: day(11), until: day(16), extra: presence(alice: day(13), bob: day(14)))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: household())
        let ends = result.calls.filter { $0.kind == .end }
        #expect(ends.map(\.at) == [day(13)])
        #expect(ends.first?.target == ["person.alice"])
        #expect(result.effects.waiting == ["end end: finished: nobody home, waiting until 2026-11-02T23:00:00Z"])
        // The Live Activity went to every phone as before: no target on the live calls and the clear.
        #expect(result.calls.filter { $0.kind != .end }.allSatisfy { $0.target == nil })
    }

    @Test func twoPeopleHomeGetItOnceEachThroughOneCallsTargets() throws {
        let lines = cycleTrace(start: day(10), end: day(11), until: day(12), extra: presence(alice: day(0), bob: day(0)))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: household())
        let ends = result.calls.filter { $0.kind == .end }
        #expect(ends.count == 1)
        #expect(ends.first?.at == day(11))
        #expect(ends.first?.target == ["person.alice", "person.bob"])
        #expect(result.effects.waiting.isEmpty)
    }

    @Test func nobodyComingHomeWithinTheLimitDropsItSaying() throws {
        let lines = cycleTrace(start: day(10), end: day(11), until: day(24), extra: presence(alice: nil, bob: nil))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: household())
        #expect(!result.calls.contains { $0.kind == .end })
        #expect(result.effects.waiting.last == "end end: finished: dropped, nobody came home within 12 h")
    }

    @Test func eachPersonInTheirLanguage() throws {
        var german = Texts()
        german.finished = "{name} fertig"
        german.doneIn = "{program} fertig nach {duration}"
        german.hours = "Std."
        var delivery = household()
        delivery.people[1].texts = german
        let lines = cycleTrace(start: day(10), end: day(11.5), until: day(12), extra: presence(alice: day(0), bob: day(0)))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: delivery)
        let ends = result.calls.filter { $0.kind == .end }
        #expect(ends.map(\.target) == [["person.alice"], ["person.bob"]])
        #expect(ends.map(\.message) == ["Eco 50°C done in 1 h 30 min", "Eco 50°C fertig nach 1 Std. 30 min"])
        #expect(ends.last?.body["title"] == .string("Dishwasher fertig"))
    }

    @Test func whoGetsWhatIsTheirChoice() throws {
        var delivery = household()
        delivery.people[1].kinds = [.reminder]
        let lines = cycleTrace(start: day(10), end: day(11), until: day(12), extra: presence(alice: day(0), bob: day(0)))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: delivery)
        #expect(result.calls.filter { $0.kind == .end }.map(\.target) == [["person.alice"]])
        // Bob gets no start alert: the start is split, alerting for Alice and quiet for him.
        let starts = result.calls.filter { $0.at == day(10) }
        #expect(starts.map(\.kind) == [.start, .quiet])
        #expect(starts.map(\.target) == [["person.alice"], ["person.bob"]])
    }

    @Test func eachPersonsQuietHours() throws {
        var delivery = household(quietHours: "22:00-07:00")
        delivery.people[1].quietHours = .off
        let lines = cycleTrace(start: day(22), end: day(23.5), until: day(24 + 8), extra: presence(alice: day(0), bob: day(0)))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), delivery: delivery)
        let ends = result.calls.filter { $0.kind == .end }
        #expect(ends.map(\.at) == [day(23.5), day(24 + 7)])
        #expect(ends.map(\.target) == [["person.bob"], ["person.alice"]])
    }

    @Test func remindersGoToWhoIsHome() throws {
        let lines = cycleTrace(start: day(10), end: day(11), until: day(13), program: cotton,
                               extra: presence(alice: day(0), bob: nil))
        let result = try Replay.run(settings: .washer(), lines: numbered(lines), delivery: household())
        let reminders = result.calls.filter { $0.kind == .reminder }
        #expect(reminders.map(\.at) == [day(11.5), day(12), day(12.5)])
        #expect(reminders.allSatisfy { $0.target == ["person.alice"] })
    }

    @Test func theRunnersPeopleEventReleasesItLikeATraceLine() throws {
        var household = Household(dailyLimit: 400, delivery: household())
        household.follow(.dishwasher())
        _ = household.handle(.people(["person.alice": "not_home", "person.bob": "not_home"], at: day(9)))
        let lines = cycleTrace(start: day(10), end: day(11), until: day(11))
        for observation in try Replay.observations(lines: numbered(lines)).observations {
            _ = household.handle(.observed("dishwasher", observation))
        }
        #expect(household.budget(at: day(11)).reserve == 1)
        #expect(household.handle(.people(["person.alice": "not_home", "person.bob": "not_home"], at: day(12))).isEmpty)
        let steps = household.handle(.people(["person.alice": "not_home", "person.bob": "home"], at: day(13)))
        let calls = steps.flatMap(\.effects).calls
        #expect(calls.map(\.kind) == [.end])
        #expect(calls.first?.target == ["person.bob"])
        #expect(household.budget(at: day(13)).reserve == 0)
    }
}
