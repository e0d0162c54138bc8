import CSQLite
import Foundation
import HTTPStandIn
import Testing

/// `cycletrack run` and `check` as processes against a stand-in Home Assistant on
/// loopback: signals, exit statuses, what they say, and what they never say (the token).
@Suite struct ServiceCommandTests {
    let token = "test-token-\(UUID().uuidString)"

    private func dishwasher(on standIn: HomeAssistantStandIn, state: String = "ready") {
        standIn.set(entity: "sensor.dw_operation_state", state: state, deviceClass: "enum")
        standIn.set(entity: "sensor.dw_progress", state: state == "run" ? "40" : "unavailable", unit: "%")
        standIn.set(entity: "sensor.dw_finish_time", state: "unavailable", deviceClass: "timestamp")
        standIn.set(entity: "select.dw_program", state: "dishcare_dishwasher_program_eco_50")
    }

    private func config(_ scratch: Scratch, url: String, entities extra: String = "") -> String {
        scratch.write("token", token, mode: 0o600)
        return scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(url)", "token_file": "\(scratch.path)/token"},
             "discover": false, "poll": {"active_seconds": 1, "idle_seconds": 1},
             "appliances": [{"id": "dw", "name": "Dishwasher", "settle_seconds": 0, "min_update_seconds": 0,
                             "entities": {"operation_state": "sensor.dw_operation_state", "progress": "sensor.dw_progress",
                                          "finish_time": "sensor.dw_finish_time", "program": "select.dw_program"\(extra)}}]}
            """)
    }

    @Test func runFollowsACycleAndStopsCleanlyOnSIGTERM() throws {
        let scratch = try Scratch()
        let standIn = try HomeAssistantStandIn(token: token)
        dishwasher(on: standIn)
        let database = scratch.path + "/history.sqlite"
        let service = try CycletrackProcess(["run", "--config", config(scratch, url: standIn.baseURL), "--db", database],
                                            environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=dw"))
        dishwasher(on: standIn, state: "run")
        #expect(service.waitForLog("event=call appliance=dw kind=start"))
        dishwasher(on: standIn, state: "finished")
        #expect(service.waitForLog("kind=end"))
        service.signal(SIGTERM)
        let result = service.wait(timeout: 10)
        #expect(result.status == 0)
        #expect(result.stderr.contains("event=signal signal=SIGTERM"))
        #expect(result.stderr.contains("event=stopped"))
        #expect(!result.stderr.contains(token))
        // The stand-in has no WebSocket API: the service says so once and polls instead.
        #expect(result.stderr.components(separatedBy: "event=events_unavailable").count == 2, "\(result.stderr)")
        // At debug level each call is logged as the same object replay prints.
        #expect(result.stderr.contains(#"event=call_body json="{\"at\":"#))
        let kinds = standIn.notifyCalls.count
        #expect(kinds == 3, "start, clear, end: \(standIn.notifyCalls.map(\.body))")
        let query = try CycletrackProcess.run(["query", "--db", database, "--format", "json"])
        let cycles = try #require(JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        #expect(cycles.first?["outcome"] as? String == "finished")
        #expect(cycles.first?["pushes"] as? Int == 3)
    }

    @Test func aSIGTERMDuringStartUpStillEndsCleanly() throws {
        let scratch = try Scratch()
        let standIn = try HomeAssistantStandIn(token: token)
        dishwasher(on: standIn)
        let service = try CycletrackProcess(["run", "--config", config(scratch, url: standIn.baseURL),
                                             "--db", scratch.path + "/history.sqlite"])
        // As soon as main has put its handler in place (SigCgt has SIGTERM, bit 14),
        // however far start-up has got.
        let status = "/proc/\(service.process.processIdentifier)/status"
        let deadline = Date().addingTimeInterval(10)
        var caught = false
        while !caught, Date() < deadline {
            let text = (try? String(contentsOfFile: status, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
               let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) {
                caught = mask & (1 << 14) != 0
            }
            if !caught { usleep(200) }
        }
        #expect(caught)
        service.signal(SIGTERM)
        let result = service.wait(timeout: 15)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("event=stopped"))
    }

    @Test func runKeepsGoingWhileHomeAssistantIsAwayAndSaysSoOnce() async throws {
        let scratch = try Scratch()
        // An HA that closes every connection without a byte of answer: each try is counted.
        let away = try HTTPStandIn { _ in .closeWithoutAnswer }
        defer { away.stop() }
        let service = try CycletrackProcess(["run", "--config", config(scratch, url: away.baseURL),
                                             "--db", scratch.path + "/history.sqlite"])
        #expect(service.waitForLog("event=ha_unreachable"))
        let tries = away.acceptedConnections
        // It keeps trying (with backoff) and stays up, and says so once: three more tries.
        try await waitFor("three more tries") { away.acceptedConnections >= tries + 3 || !service.process.isRunning }
        #expect(away.acceptedConnections >= tries + 3, "it tried again: \(away.acceptedConnections) connections")
        #expect(service.process.isRunning)
        service.signal(SIGINT)
        let result = service.wait(timeout: 10)
        #expect(result.status == 0)
        #expect(result.stderr.components(separatedBy: "event=ha_unreachable").count - 1 == 1)
        #expect(!result.stderr.contains(token))
    }

    @Test func runKeepsTheHistoryForKeepDays() throws {
        let scratch = try Scratch()
        let standIn = try HomeAssistantStandIn(token: token)
        dishwasher(on: standIn)
        let database = scratch.path + "/history.sqlite"
        // An old cycle, recorded by a replay of a trace from 2020.
        let trace = scratch.write("old.jsonl", """
            {"at": "2020-01-01T08:00:00Z", "states": {"operation_state": "ready"}}
            {"at": "2020-01-01T08:01:00Z", "states": {"operation_state": "run", "progress": "0"}}
            {"at": "2020-01-01T09:01:00Z", "states": {"operation_state": "finished", "progress": "100"}}
            """)
        let recorded = try CycletrackProcess.run(["replay", "--appliance", "dw", trace, "--record", database])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        var text = try String(contentsOfFile: config(scratch, url: standIn.baseURL), encoding: .utf8)
        text = text.replacingOccurrences(of: #""discover": false,"#, with: #""discover": false, "history": {"keep_days": 30},"#)
        let path = scratch.write("keep.json", text)
        let service = try CycletrackProcess(["run", "--config", path, "--db", database])
        #expect(service.waitForLog("event=history_pruned keep_days=30"), "\(service.stderrSoFar)")
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 10).status == 0)
        let query = try CycletrackProcess.run(["query", "--db", database, "--format", "csv"])
        #expect(query.stdout.split(separator: "\n").count == 1, "only the header is left: \(query.stdout)")
    }

    @Test func aSecondServiceOnTheSameDatabaseIsRefused() throws {
        let scratch = try Scratch()
        let standIn = try HomeAssistantStandIn(token: token)
        dishwasher(on: standIn)
        let database = scratch.path + "/history.sqlite"
        let first = try CycletrackProcess(["run", "--config", config(scratch, url: standIn.baseURL), "--db", database])
        #expect(first.waitForLog("event=tracking"))
        let second = try CycletrackProcess.run(["run", "--config", config(scratch, url: standIn.baseURL), "--db", database])
        #expect(second.status == 78)
        #expect(second.stderr.contains("another cycletrack run is using \(database)"))
        first.signal(SIGKILL)
        _ = first.wait(timeout: 10)
        // The kernel lets go of the lock with the process, however it ended.
        let third = try CycletrackProcess(["run", "--config", config(scratch, url: standIn.baseURL), "--db", database])
        #expect(third.waitForLog("event=tracking"))
        third.signal(SIGTERM)
        #expect(third.wait(timeout: 10).status == 0)
    }

    @Test func aRevokedTokenIsSaidAsSuchByRunAndCheckWithDiscoveryOn() throws {
        let scratch = try Scratch()
        let standIn = try HomeAssistantStandIn(token: "the-token-ha-knows")
        dishwasher(on: standIn)
        scratch.write("token", token, mode: 0o600)
        let config = scratch.write("discover.json", """
            {"home_assistant": {"url": "\(standIn.baseURL)", "token_file": "\(scratch.path)/token"}, "discover": true}
            """)
        let service = try CycletrackProcess(["run", "--config", config, "--db", scratch.path + "/history.sqlite"])
        #expect(service.waitForLog("event=no_appliances"))
        service.signal(SIGTERM)
        let result = service.wait(timeout: 10)
        #expect(result.stderr.contains("event=ha_token_refused"))
        #expect(!result.stderr.contains("discovery found no device"))
        #expect(!result.stderr.contains(token))
        let check = try CycletrackProcess.run(["check", "--config", config])
        #expect(check.status != 0)
        #expect(check.stdout.contains("refused the token"))
        #expect(!check.stdout.contains("turn on 'discover'"))
    }

    @Test func runRefusesBadSetupWithTheDocumentedStatuses() throws {
        let scratch = try Scratch()
        let noToken = scratch.write("no-token.json", #"{"home_assistant": {"url": "http://127.0.0.1:9"}, "discover": false}"#)
        let missing = try CycletrackProcess.run(["run", "--config", noToken])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("no Home Assistant token"))
        let typo = scratch.write("typo.json", #"{"discovr": false}"#)
        let unknown = try CycletrackProcess.run(["run", "--config", typo], environment: ["HA_TOKEN": token])
        #expect(unknown.status == 78)
        #expect(unknown.stderr.contains("unknown key 'discovr' (did you mean 'discover'?)"))
        let usage = try CycletrackProcess.run(["run", "--cofig", typo])
        #expect(usage.status == 64)
        let nothing = try CycletrackProcess.run(["frobnicate"])
        #expect(nothing.status == 64)
    }

    @Test func aDatabaseFromANewerVersionIsRefusedAndLeftAlone() throws {
        let scratch = try Scratch()
        let database = scratch.path + "/future.sqlite"
        var handle: OpaquePointer?
        #expect(sqlite3_open(database, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "CREATE TABLE things(x); PRAGMA user_version = 999;", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let standIn = try HomeAssistantStandIn(token: token)
        dishwasher(on: standIn)
        let result = try CycletrackProcess.run(["run", "--config", config(scratch, url: standIn.baseURL), "--db", database])
        #expect(result.status == 78)
        #expect(result.stderr.contains("999"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
        let query = try CycletrackProcess.run(["query", "--db", database])
        #expect(query.status == 78)
    }

    @Test func checkSaysWhatIsWrongAndExitsZeroOnlyWhenAllIsWell() throws {
        let scratch = try Scratch()
        let standIn = try HomeAssistantStandIn(token: token)
        dishwasher(on: standIn)
        let good = try CycletrackProcess.run(["check", "--config", config(scratch, url: standIn.baseURL)])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("supernotify.notify"))
        #expect(good.stdout.contains("version 2024.3.3"))
        #expect(!good.stdout.contains("FAIL"))

        let withDoor = config(scratch, url: standIn.baseURL, entities: #", "door": "sensor.dw_door_missing""#)
        let missingEntity = try CycletrackProcess.run(["check", "--config", withDoor])
        #expect(missingEntity.status == 1)
        #expect(missingEntity.stdout.contains("sensor.dw_door_missing does not exist"))

        standIn.setService(domain: "supernotify", service: "notify", available: false)
        let noSupernotify = try CycletrackProcess.run(["check", "--config", config(scratch, url: standIn.baseURL)])
        #expect(noSupernotify.status == 1)
        #expect(noSupernotify.stdout.contains("install Supernotify"))

        let wrongToken = try HomeAssistantStandIn(token: "another-token")
        let refused = try CycletrackProcess.run(["check", "--config", config(scratch, url: wrongToken.baseURL)])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("FAIL"))
        #expect(!refused.stdout.contains(token) && !refused.stderr.contains(token))

        let port = try HTTPStandIn.unusedPort()
        let away = try CycletrackProcess.run(["check", "--config", config(scratch, url: "http://127.0.0.1:\(port)")])
        #expect(away.status == 69)
    }
}
