import CycleCore
import Foundation
import FoundationEssentials
import HTTPStandIn
import Synchronization
import Testing
import TestSupport
@testable import CycleService
@testable import CycleCommands
@testable import HomeAssistantAPI
@testable import ServiceAPI

/// The add-on announcing the local API to the Supervisor (docs/API.md, "Add-on
/// discovery"), against a stand-in Supervisor on 127.0.0.1; and `cycletrack api-key`.
@Suite struct SupervisorDiscoveryTests {
    final class Seen: Sendable {
        let requests = Mutex<[HTTPStandIn.Request]>([])
    }

    @Test func theAnnouncementCarriesHostPortAndKeyWithTheSupervisorToken() async throws {
        let seen = Seen()
        let supervisor = try HTTPStandIn { request in
            seen.requests.withLock { $0.append(request) }
            return .respond(.json(#"{"result":"ok","data":{"uuid":"5e1b3c2a"}}"#))
        }
        defer { supervisor.stop() }
        let folder = try StoreFixture()
        let key = try APIKey.loadOrCreate(folder.path("cycletrack.api-key")).key
        let capture = LogCapture()
        let discovery = SupervisorDiscovery(supervisorURL: supervisor.baseURL, token: "supervisor-token")
        #expect(await discovery.announce(host: "a0d7b954-cycletrack", port: 8099, key: key, log: capture.log))
        let request = try #require(seen.requests.withLock { $0 }.first)
        #expect(request.method == "POST" && request.path == "/discovery")
        #expect(request.headers["authorization"] == "Bearer supervisor-token")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        #expect(body["service"] as? String == "cycletrack")
        let config = try #require(body["config"] as? [String: Any])
        #expect(config["host"] as? String == "a0d7b954-cycletrack")
        #expect(config["port"] as? Int == 8099)
        #expect(config["api_key"] as? String == key.text)
        #expect(capture.count("discovery_announced") == 1)
        #expect(!capture.all.joined().contains(key.text))
    }

    @Test(arguments: [true, false])
    func aFailedAnnouncementIsLoggedAndNotFatal(answering: Bool) async throws {
        let supervisor = try HTTPStandIn { _ in .respond(.json(#"{"result":"error","message":"no discovery"}"#, status: 400)) }
        let url = answering ? supervisor.baseURL : "http://127.0.0.1:\(try HTTPStandIn.unusedPort())"
        defer { supervisor.stop() }
        let folder = try StoreFixture()
        let key = try APIKey.loadOrCreate(folder.path("cycletrack.api-key")).key
        let capture = LogCapture()
        let discovery = SupervisorDiscovery(supervisorURL: url, token: "supervisor-token")
        #expect(await discovery.announce(host: "cycletrack", port: 8099, key: key, log: capture.log) == false)
        #expect(capture.count("discovery_announce_failed") == 1)
        #expect(!capture.all.joined().contains(key.text) && !capture.all.joined().contains("supervisor-token"))
    }

    @Test func theAddOnDeclaresTheDiscovery() throws {
        let config = try String(contentsOfFile: #filePath.replacing("Tests/ServiceAPITests/SupervisorDiscoveryTests.swift", with: "cycletrack/config.yaml"),
                                encoding: .utf8)
        #expect(config.contains("\ndiscovery:\n  - cycletrack\n"))
    }

    @Test func apiKeyPrintsTheKeyBesideTheDatabase() throws {
        let fixture = try StoreFixture()
        #expect(throws: CommandError.self) { try APIKeyCommand(arguments: ["--db", fixture.path()], environment: [:]).run() }
        do {
            _ = try APIKeyCommand(arguments: ["--db", fixture.path()], environment: [:]).run()
        } catch {
            #expect(error.code == .noInput && error.message.contains("cycletrack.api-key"))
        }
        let key = try APIKey.loadOrCreate(APIKey.path(besideDatabase: fixture.path())).key
        #expect(try APIKeyCommand(arguments: ["--db", fixture.path()], environment: [:]).run() == key.text)
        #expect(try APIKeyCommand(arguments: [], environment: ["CYCLETRACK_DB": fixture.path()]).run() == key.text)
        #expect(CommandLineTool.help(for: "api-key") == APIKeyCommand.help)
        #expect(CommandLineTool.usage.contains("  api-key  "))
    }
}

/// `cycletrack check`'s rows of settings: the value in effect and where it comes from.
@Suite struct SettingsSourcesTests {
    @Test func eachSettingSaysWhereItComesFrom() {
        let defaults = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        var base = defaults
        base.notifyProgress = true
        let rows = SettingsSources.rows(base: base, defaults: defaults,
                                        overrides: ApplianceOverrides(steps: .at([50]), values: ["unload_reminder_minutes": .number(0)]))
        // One row per tunable setting, in the API's order (ApplianceSetting.all).
        #expect(rows.map(\.key) == ApplianceOverrides.keys)
        let shown = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, "\($0.value) (\($0.source))") })
        #expect(shown["progress_steps"] == #"{"at":[50]} (api override)"#)
        #expect(shown["notify_progress"] == "true (config)")
        #expect(shown["unload_reminder_minutes"] == "null (api override)")
        #expect(shown["notify_start"] == "true (default)" && shown["live_activity"] == "true (default)")
        let rest = rows.filter { !["progress_steps", "notify_progress", "unload_reminder_minutes"].contains($0.key) }
        #expect(rest.allSatisfy { $0.source == "default" })
    }
}
