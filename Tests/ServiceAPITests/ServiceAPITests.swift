import CycleCore
import FoundationEssentials
import Foundation
import HTTPStandIn
import Testing
import TestSupport
@testable import CycleHistory
@testable import HomeAssistantAPI
@testable import CycleService
@testable import CycleCommands
@testable import ServiceAPI

/// The local API (docs/API.md) over real HTTP on 127.0.0.1, against a running service
/// with a real SQLite file and a stand-in Home Assistant.
@Suite(.serialized) struct ServiceAPITests {
    @Test func everyRequestWithoutTheKeyIsRefusedAndLogged() async throws {
        let api = try await APIFixture()
        defer { Task { await api.stop() } }
        for authorization: String? in [nil, "Bearer wrong", "Bearer " + String(api.key.text.reversed()), api.key.text] {
            let response = try await api.send(.get, "/api/v1/service", authorization: .some(authorization))
            #expect(response.status == 401)
            #expect(response.text?.contains("\"error\":\"unauthorized\"") == true)
        }
        let refused = try await api.send(.patch, "/api/v1/appliances/dishwasher/settings", body: #"{"notify_start":false}"#,
                                         authorization: .some("Bearer nope"))
        #expect(refused.status == 401)
        // Five refusals from one address in a moment, then a hundred more: its first is
        // logged, the rest counted for its next line a minute on (RefusalLogTests).
        for _ in 0..<100 {
            #expect(try await api.send(.get, "/api/v1/service", authorization: .some("Bearer wrong")).status == 401)
        }
        #expect(api.capture.count("api_refused") == 1)
        #expect(!api.capture.all.joined().contains(api.key.text), "the key is never logged")
        #expect(api.capture.all.contains { $0.contains("event=api_refused") && $0.contains("client=127.0.0.1") && $0.contains("path=/api/v1/service") })
        // The history page needs no key.
        #expect(try await HTTPClient().send(HTTPRequest(url: api.base + "/")).status == 200)
    }

    @Test func theKeyFileIsMadeOnceWithMode0600() throws {
        let fixture = try StoreFixture()
        let path = APIKey.path(besideDatabase: fixture.path())
        #expect(path == fixture.directory + "/cycletrack.api-key")
        let made = try APIKey.loadOrCreate(path)
        #expect(made.created && made.key.text.count == 64 && made.key.text.allSatisfy(\.isHexDigit))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try APIKey.loadOrCreate(path).key.text == made.key.text)
        #expect(try APIKey.loadOrCreate(path).created == false)
        #expect(made.key.accepts(authorization: "Bearer " + made.key.text))
        #expect(!made.key.accepts(authorization: "Bearer " + made.key.text.dropLast()))
        #expect(!made.key.accepts(authorization: made.key.text))
    }

    @Test func theServiceAndTheAppliancesAreShown() async throws {
        let api = try await APIFixture()
        defer { Task { await api.stop() } }
        let service = try APIFixture.object(try await api.get("/api/v1/service").text)
        #expect(service["version"] as? String == CycletrackVersion.current)
        #expect((service["instance_id"] as? String)?.count == 36)
        #expect((service["home_assistant"] as? [String: Any])?["updates"] as? String == "poll")
        #expect(service["daily_push_limit"] as? Int == 400)
        #expect((service["pushes_today"] as? Int ?? 0) >= 1)
        #expect(service["pushes_left_today"] as? Int == 400 - (service["pushes_today"] as? Int ?? 0))
        let declared = try #require(service["appliance_settings"] as? [[String: Any]])
        #expect(declared.map { $0["key"] as? String } == ApplianceSetting.declared.map(\.key))
        let list = try APIFixture.object(try await api.get("/api/v1/appliances").text)
        #expect((list["appliances"] as? [[String: Any]])?.map { $0["id"] as? String } == ["dishwasher"])
        let appliance = try APIFixture.object(try await api.get("/api/v1/appliances/dishwasher").text)
        #expect(appliance["state"] as? String == "running")
        #expect(appliance["running"] as? Bool == true)
        #expect(appliance["program"] as? String == "Eco 50°C")
        #expect(appliance["progress"] as? Int == 42)
        #expect(appliance["device_id"] as? String == "0123456789abcdef0123456789abcdef")
        #expect(appliance["pushes_this_cycle"] as? Int == 1)
        #expect((appliance["started_at"] as? String)?.hasSuffix("Z") == true)
        #expect(appliance["energy_total_kwh"] as? Double == 0)
        let settings = try #require(appliance["settings"] as? [String: Any])
        #expect(settings["progress_steps"] as? [String: Int] == ["step": 10, "fine_from": 90, "fine_step": 2])
        #expect(settings["notify_start"] as? Bool == true && settings["live_activity"] as? Bool == true)
        #expect(settings["unload_reminder_minutes"] is NSNull)
        let missing = try await api.get("/api/v1/appliances/fridge")
        #expect(missing.status == 404 && missing.text.contains("\"error\":\"unknown_appliance\"") && missing.text.contains("fridge"))
        #expect(try await api.get("/api/v1/nothing").status == 404)
        #expect(try await api.send(.post, "/api/v1/service", body: "{}").status == 405)
    }

    @Test(arguments: [
        (#"{"progress_steps":{"step":0}}"#, "progress_steps.step"),
        (#"{"progress_steps":{"at":[50,120]}}"#, "progress_steps.at[1]"),
        (#"{"notify_start":"yes"}"#, "notify_start"),
        (#"{"unload_reminder_minutes":-5}"#, "unload_reminder_minutes"),
        (#"{"unload_reminder_minutes":0.5}"#, "unload_reminder_minutes"),
        (#"{"unload_reminder_minutes":0.001}"#, "unload_reminder_minutes"),
        (#"{"notify_progress":null}"#, "notify_progress"),
        (#"{"live_activity":null}"#, "live_activity"),
        (#"{"progress_steps":null}"#, "progress_steps"),
        (#"{"notify_strat":true}"#, "notify_strat"),
        (#"{"reset":true,"notify_end":false}"#, "reset"),
        ("not json", "not JSON"),
    ])
    func aBadSettingsBodyIsRefusedNamingTheKey(body: String, named: String) async throws {
        let api = try await APIFixture()
        defer { Task { await api.stop() } }
        let response = try await api.send(.patch, "/api/v1/appliances/dishwasher/settings", body: body)
        #expect(response.status == 400)
        #expect(response.text?.contains("\"error\":\"bad_request\"") == true)
        #expect(response.text?.contains(named) == true, "\(response.text ?? "")")
        #expect(try HistoryStore(path: api.database, mode: .readOnly).settingsOverrides().isEmpty)
    }

    @Test func settingsChangedThroughTheAPIPersistAcrossARestart() async throws {
        let api = try await APIFixture()
        let body = #"{"progress_steps":{"at":[45,50,75]},"notify_end":false,"unload_reminder_minutes":null}"#
        let changed = try await api.send(.patch, "/api/v1/appliances/dishwasher/settings", body: body)
        #expect(changed.status == 200)
        let settings = try #require(try APIFixture.object(changed.text ?? "")["settings"] as? [String: Any])
        #expect(settings["progress_steps"] as? [String: [Int]] == ["at": [45, 50, 75]])
        #expect(settings["notify_end"] as? Bool == false)
        #expect(try await api.send(.patch, "/api/v1/appliances/fridge/settings", body: "{}").status == 404)
        await api.stop()
        #expect(try HistoryStore(path: api.database, mode: .readOnly).settingsOverrides()["dishwasher"]?.keys.sorted()
            == ["notify_end", "progress_steps", "unload_reminder_minutes"])
        try await api.start()
        let again = try APIFixture.object(try await api.get("/api/v1/appliances/dishwasher").text)
        #expect((again["settings"] as? [String: Any])?["progress_steps"] as? [String: [Int]] == ["at": [45, 50, 75]])
        // The open cycle's next step is the new one: 45 goes out at 45 %.
        api.show(progress: 45)
        try await eventually("the 45 % step") { api.standIn.notifyCalls.contains { $0.body.contains("\"progress\":45") } }
        let reset = try await api.send(.patch, "/api/v1/appliances/dishwasher/settings", body: #"{"reset":true}"#)
        #expect(reset.status == 200 && reset.text?.contains(#""notify_end":true"#) == true)
        #expect(try HistoryStore(path: api.database, mode: .readOnly).settingsOverrides().isEmpty)
        await api.stop()
    }

    @Test func endingTheActivitySendsOneClear() async throws {
        let api = try await APIFixture()
        defer { Task { await api.stop() } }
        #expect(api.clears == 0)
        let ended = try await api.send(.post, "/api/v1/appliances/dishwasher/end_activity")
        #expect(ended.status == 202 && ended.text == #"{"accepted":true}"#)
        #expect(api.clears == 1)
        let again = try await api.send(.post, "/api/v1/appliances/dishwasher/end_activity")
        #expect(again.status == 409 && again.text?.contains("\"error\":\"no_activity\"") == true)
        #expect(try await api.send(.post, "/api/v1/appliances/fridge/end_activity").status == 404)
        let store = try HistoryStore(path: api.database, mode: .readOnly)
        let cycle = try #require(try store.cycles(matching: CycleFilter()).first)
        let pushes = try store.pushes(cycleID: cycle.id)
        #expect(pushes.filter { $0.kind == .clear }.map(\.reason) == ["clear: asked"])
        #expect(pushes.filter { $0.kind == .clear }.allSatisfy { $0.status == .sent })
        // The cycle runs on without live calls; its end sends the end notification and no second clear.
        api.show(progress: 60)
        api.show(progress: 100, operation: "finished")
        try await eventually("the end") { api.standIn.notifyCalls.contains { $0.body.contains("_end\"") } }
        #expect(api.clears == 1)
    }

    @Test func unloadedIsTakenByTheLoopAndNamesAnUnknownAppliance() async throws {
        let api = try await APIFixture()
        defer { Task { await api.stop() } }
        // Nothing waits to be unloaded (a dishwasher mid-cycle): accepted, and said in the log.
        let unloaded = try await api.send(.post, "/api/v1/appliances/dishwasher/unloaded")
        #expect(unloaded.status == 202 && unloaded.text == #"{"accepted":true}"#)
        #expect(api.capture.all.contains { $0.contains("event=unloaded") && $0.contains("by=api") })
        let unknown = try await api.send(.post, "/api/v1/appliances/fridge/unloaded")
        #expect(unknown.status == 404 && unknown.text?.contains("unknown_appliance") == true)
        let wrong = try await api.get("/api/v1/appliances/dishwasher/unloaded")
        #expect(wrong.status == 405 && wrong.text.contains("takes POST"))
    }

    @Test func theStreamSendsTheSnapshotThenChanges() async throws {
        let api = try await APIFixture()
        defer { Task { await api.stop() } }
        let refused = try EventStreamReader(port: api.server.port, key: nil)
        #expect(refused.waitFor("401"))
        refused.close()
        let stream = try EventStreamReader(port: api.server.port, key: api.key.text)
        #expect(stream.waitFor("event: snapshot\ndata: {\"service\":"))
        #expect(stream.received.contains("text/event-stream"))
        try await eventually("connected") { try await api.get("/api/v1/service").text.contains("\"integration_connected\":true") }
        api.show(progress: 50)
        #expect(stream.waitFor("event: push_sent\ndata: {\"appliance\":\"dishwasher\",\"kind\":\"update\""))
        #expect(stream.waitFor("\"progress\":50"))
        #expect(stream.received.contains("event: appliance\ndata: {\"id\":\"dishwasher\""))
        // A page and another API call are answered while the stream is open.
        #expect(try await api.get("/api/v1/service").status == 200)
        #expect(try await HTTPClient().send(HTTPRequest(url: api.base + "/")).status == 200)
        stream.close()
        try await eventually("the stream closed") { !api.link.hasOpenStreams }
        // Closed, but within 60 s: still counted as connected; after them, not.
        #expect(try await api.get("/api/v1/service").text.contains("\"integration_connected\":true"))
        api.shift.set(61)
        try await eventually("not connected") { try await api.get("/api/v1/service").text.contains("\"integration_connected\":false") }
    }

    @Test func theAnnouncedIntegrationTakesTheRestEntitiesOutUntilItIsRemoved() async throws {
        let api = try await APIFixture()
        defer { Task { await api.stop() } }
        // The poll's snapshot is shared before its states are posted: wait for both.
        try await eventually("without an integration the entities are posted") { api.postedStates >= 2 }
        func own() -> [String] { api.standIn.entities.keys.filter { $0.hasPrefix("sensor.cycletrack_") }.sorted() }
        #expect(own() == ["sensor.cycletrack_dishwasher", "sensor.cycletrack_pushes_today"])
        let announced = try await api.send(.put, "/api/v1/integration", body: "{}")
        #expect(announced.status == 200 && announced.text == #"{"configured":true}"#, "\(announced.text ?? "")")
        #expect(own().isEmpty, "removed before the answer: \(own())")
        let postedBefore = api.postedStates
        api.show(progress: 50)
        try await eventually("the 50 % update") { api.standIn.notifyCalls.contains { $0.body.contains("\"progress\":50") } }
        #expect(api.postedStates == postedBefore, "no REST entity is posted once an integration announced itself")
        #expect(api.standIn.posts.contains { $0.path == "events/cycletrack_cycle_started" }, "the bus events still fire")
        let wrong = try await api.send(.get, "/api/v1/integration")
        #expect(wrong.status == 405 && wrong.headers["allow"] == "PUT, DELETE")
        // Across a restart of the service: still none.
        await api.stop()
        try await api.start()
        api.show(progress: 60)
        try await eventually("the 60 % update") { api.standIn.notifyCalls.contains { $0.body.contains("\"progress\":60") } }
        #expect(api.postedStates == postedBefore && own().isEmpty)
        let removed = try await api.send(.delete, "/api/v1/integration")
        #expect(removed.status == 200 && removed.text == #"{"configured":false}"#)
        #expect(own() == ["sensor.cycletrack_dishwasher", "sensor.cycletrack_pushes_today"], "posted again at once")
        #expect(api.capture.all.contains { $0.contains("event=integration_announced") })
        #expect(!api.capture.all.joined().contains(api.standIn.token), "no token in the log")
    }
}
