import CycleCore
import Foundation
import FoundationEssentials
import Testing
import TestSupport
@testable import CycleHistory
@testable import CycleService
@testable import ServiceAPI

/// `/api/v1/household` and `/api/v1/people/{entity}` (docs/API.md, "The household") over
/// loopback against the runner and a real SQLite file: the settings in effect with their
/// sources, strict bodies, persistence across a restart, and a change taking effect at once
/// for an end notification that waits.
@Suite struct HouseholdAPITests {
    /// Quiet hours holding now (UTC, the fixture's clock) for the next hours, and Alice and Bob.
    static func delivery(quietNow: Bool = true) -> DeliverySettings {
        var delivery = DeliverySettings()
        let minute = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date())
        let now = (minute.hour ?? 0) * 60 + (minute.minute ?? 0)
        if quietNow { delivery.quietHours = QuietHours(start: (now + 1440 - 60) % 1440, end: (now + 180) % 1440) }
        var bob = PersonSettings(entity: "person.bob")
        bob.kinds = [.end, .reminder]
        delivery.people = [PersonSettings(entity: "person.alice"), bob]
        return delivery
    }

    /// `delivery`: the settings to start with (default: `delivery(quietNow:)`), so that a
    /// test reads the very window the service got, not one a minute later.
    static func fixture(quietNow: Bool = true, delivery given: DeliverySettings? = nil) async throws -> APIFixture {
        let api = try await APIFixture(delivery: given ?? delivery(quietNow: quietNow))
        api.standIn.set(entity: "person.alice", state: "home")
        api.standIn.set(entity: "person.bob", state: "not_home")
        return api
    }

    /// The end notifications the stand-in's Supernotify got (the clear carries the title too).
    static func ends(_ api: APIFixture) -> [String] {
        api.standIn.notifyCalls.map(\.body).filter { body in
            (body.contains("Dishwasher finished") || body.contains("Dishwasher fertig"))
                && !body.contains("\"mobile_push_clear_notification\":true")
        }
    }

    @Test func theHouseholdAndEachPersonShowTheirSettingsAndSources() async throws {
        let delivery = Self.delivery()
        let api = try await Self.fixture(delivery: delivery)
        defer { Task { await api.stop() } }
        let household = try APIFixture.object(try await api.get("/api/v1/household").text)
        let window = try #require(delivery.quietHours?.text)
        #expect(household["settings"] as? [String: String] == ["quiet_hours": window])
        #expect(household["sources"] as? [String: String] == ["quiet_hours": "config"])
        #expect(household["languages"] as? [String] == ["en", "de"])
        let people = try #require(household["people"] as? [[String: Any]])
        #expect(people.map { $0["entity"] as? String } == ["person.alice", "person.bob"])
        let bob = try APIFixture.object(try await api.get("/api/v1/people/person.bob").text)
        #expect(bob["target"] as? [String] == ["person.bob"])
        let settings = try #require(bob["settings"] as? [String: Any])
        #expect(settings["kinds"] as? [String] == ["end", "reminder"])
        #expect(settings["quiet_hours"] is NSNull && settings["language"] is NSNull)
        #expect(bob["sources"] as? [String: String] == ["kinds": "config", "quiet_hours": "default", "language": "default"])
        #expect(try await api.get("/api/v1/people/person.carol").status == 404)
        #expect(try await api.get("/api/v1/people/person.carol").text.contains("unknown_person"))
        #expect(try await api.send(.post, "/api/v1/household").status == 405)
    }

    @Test(arguments: [
        ("/api/v1/household/settings", #"{"quiet_hours":"25:00-07:00"}"#, "quiet_hours"),
        ("/api/v1/household/settings", #"{"quiet_hours":null}"#, "quiet_hours"),
        ("/api/v1/household/settings", #"{"quiet_hour":"off"}"#, "quiet_hour"),
        ("/api/v1/people/person.alice/settings", #"{"kinds":["end","laundry"]}"#, "kinds"),
        ("/api/v1/people/person.alice/settings", #"{"kinds":[]}"#, "kinds"),
        ("/api/v1/people/person.alice/settings", #"{"language":"fr"}"#, "language"),
        ("/api/v1/people/person.alice/settings", #"{"quiet_hours":"22:00"}"#, "quiet_hours"),
        ("/api/v1/people/person.alice/settings", #"{"quiet_hours":""}"#, "quiet_hours"),
        ("/api/v1/household/settings", #"{"quiet_hours":""}"#, "quiet_hours"),
        ("/api/v1/people/person.alice/settings", #"{"reset":true,"language":"de"}"#, "reset"),
        ("/api/v1/people/person.alice/settings", "[1]", "(top level)"),
    ])
    func aBadBodyIsRefusedNamingTheField(path: String, body: String, named: String) async throws {
        let api = try await Self.fixture()
        defer { Task { await api.stop() } }
        let response = try await api.send(.patch, path, body: body)
        #expect(response.status == 400)
        #expect(response.text?.contains("\"error\":\"bad_request\"") == true)
        #expect(response.text?.contains("'\(named)") == true, "\(response.text ?? "")")
        #expect(try HistoryStore(path: api.database, mode: .readOnly).householdOverrides().isEmpty)
    }

    @Test func aChangeToAnUnknownPersonIs404AndStoresNothing() async throws {
        let api = try await Self.fixture()
        defer { Task { await api.stop() } }
        let response = try await api.send(.patch, "/api/v1/people/person.carol/settings", body: #"{"language":"de"}"#)
        #expect(response.status == 404 && response.text?.contains("unknown_person") == true)
        #expect(try HistoryStore(path: api.database, mode: .readOnly).householdOverrides().isEmpty)
    }

    @Test func aWaitingEndNotificationGoesOutAtOnceWhenQuietHoursEndThroughTheAPI() async throws {
        let api = try await Self.fixture()
        // Alice reads German from now on; the end will be addressed to her.
        let alice = try await api.send(.patch, "/api/v1/people/person.alice/settings", body: #"{"language":"de"}"#)
        #expect(alice.status == 200)
        let aliceBody = try APIFixture.object(alice.text ?? "")
        #expect((aliceBody["settings"] as? [String: Any])?["language"] as? String == "de")
        #expect((aliceBody["sources"] as? [String: String])?["language"] == "api")
        api.show(progress: 100, operation: "finished")
        try await eventually("the clear at the end") { api.clears == 1 }
        try await eventually("the end waits for the quiet hours' end") {
            api.capture.all.contains { $0.contains("quiet hours") && $0.contains("waiting until") }
        }
        #expect(Self.ends(api).isEmpty)
        let off = try await api.send(.patch, "/api/v1/household/settings", body: #"{"quiet_hours":"off"}"#)
        #expect(off.status == 200)
        let household = try APIFixture.object(off.text ?? "")
        #expect(household["settings"] as? [String: String] == ["quiet_hours": "off"])
        #expect(household["sources"] as? [String: String] == ["quiet_hours": "api"])
        try await eventually("the end notification, now") { Self.ends(api).count == 1 }
        let end = try #require(Self.ends(api).first)
        #expect(end.contains("Dishwasher fertig") && end.contains("person.alice") && !end.contains("person.bob"))
        await api.stop()

        // Kept in the history and in effect after a restart; the notice went out once.
        let stored = try HistoryStore(path: api.database, mode: .readOnly).householdOverrides()
        #expect(stored == ["household": ["quiet_hours": #""off""#], "person.alice": ["language": #""de""#]])
        api.show(progress: 10)  // the next cycle, which the fixture waits for
        try await api.start()
        let again = try APIFixture.object(try await api.get("/api/v1/household").text)
        #expect(again["sources"] as? [String: String] == ["quiet_hours": "api"])
        #expect(Self.ends(api).count == 1)
        let reset = try await api.send(.patch, "/api/v1/household/settings", body: #"{"reset":true}"#)
        #expect(reset.status == 200 && reset.text?.contains(#""sources":{"quiet_hours":"config"}"#) == true)
        let person = try await api.send(.patch, "/api/v1/people/person.alice/settings", body: #"{"reset":true}"#)
        #expect(person.status == 200 && person.text?.contains(#""language":null"#) == true)
        #expect(try HistoryStore(path: api.database, mode: .readOnly).householdOverrides().isEmpty)
        await api.stop()
    }

    @Test func aPersonsKindsAndQuietHoursChangeWhoGetsTheEnd() async throws {
        let api = try await Self.fixture(quietNow: false)
        let window = try #require(Self.delivery().quietHours?.text)
        // Alice gets no end notification any more; Bob, home now, is in his own quiet hours.
        let alice = try await api.send(.patch, "/api/v1/people/person.alice/settings", body: #"{"kinds":["start","reminder"]}"#)
        #expect(alice.status == 200 && alice.text?.contains(#""kinds":["start","reminder"]"#) == true)
        let bob = try await api.send(.patch, "/api/v1/people/person.bob/settings", body: "{\"quiet_hours\":\"\(window)\"}")
        #expect(bob.status == 200 && bob.text?.contains(#""quiet_hours":"api""#) == true)
        api.standIn.set(entity: "person.bob", state: "home")
        api.show(progress: 100, operation: "finished")
        try await eventually("the end waits for Bob's quiet hours") {
            api.capture.all.contains { $0.contains("quiet hours for person.bob") }
        }
        #expect(Self.ends(api).isEmpty)
        // His own quiet hours dropped again: he follows the household's (none), and gets it now.
        let none = try await api.send(.patch, "/api/v1/people/person.bob/settings", body: #"{"quiet_hours":null}"#)
        #expect(none.status == 200)
        try await eventually("the end notification to Bob") { Self.ends(api).count == 1 }
        let end = try #require(Self.ends(api).first)
        #expect(end.contains("person.bob") && !end.contains("person.alice"))
        await api.stop()
    }
}
