import Foundation
import Testing

/// `cycletrack replay`, `query` and `stats` as a user runs them: the built executable.
@Suite struct ReplayCommandTests {
    /// A short washer cycle: start, progress through every step, a pause, an unknown
    /// operation state, the end.
    static let washerTrace: String = {
        var lines = [#"{"at": "2026-11-02T08:00:00Z", "states": {"operation_state": "ready", "program": "laundry_care_washer_program_cotton"}}"#]
        for minute in 0...49 {
            let at = String(format: "2026-11-02T%02d:%02d:00Z", 8 + (minute * 2 + 1) / 60, (minute * 2 + 1) % 60)
            let state = minute == 20 ? "pause" : minute == 30 ? "spinning_wildly" : "run"
            lines.append(#"{"at": "\#(at)", "states": {"operation_state": "\#(state)", "program": "laundry_care_washer_program_cotton", "progress": "\#(minute * 2)", "finish_time": "2026-11-02T09:45:00+00:00"}}"#)
        }
        lines.append(#"{"at": "2026-11-02T09:45:00Z", "states": {"operation_state": "finished", "program": "laundry_care_washer_program_cotton"}}"#)
        lines.append(#"{"at": "2026-11-02T10:15:00Z", "states": {"operation_state": "ready"}}"#)
        return lines.joined(separator: "\n") + "\n"
    }()

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func jsonlHasOneCallPerLineAndTheSummaryGoesToStderr() throws {
        let scratch = try Scratch()
        let trace = scratch.write("washer.jsonl", Self.washerTrace)
        let result = try CycletrackProcess.run(["replay", "--appliance", "washer", trace])
        #expect(result.status == 0)
        let calls = try jsonLines(result.stdout)
        #expect(calls.map { $0["kind"] as? String }.first == "start")
        #expect(calls.map { $0["kind"] as? String }.suffix(2) == ["clear", "end"])
        #expect(calls.count <= 18)
        for call in calls {
            #expect((call["at"] as? String)?.hasSuffix("Z") == true)
            let body = try #require(call["body"] as? [String: Any])
            #expect(body["force_resend"] as? Bool == true)
        }
        #expect(calls.contains { (($0["body"] as? [String: Any])?["message"] as? String) == "Paused" })
        #expect(result.stderr.contains("cycles: 1 (finished Cotton"))
        #expect(result.stderr.contains("unrecognised") || result.stderr.contains("spinning_wildly"))
        #expect(!result.stdout.contains("cycles:"))
    }

    @Test func stdinAndTheTableFormat() throws {
        let result = try CycletrackProcess.run(["replay", "--appliance", "washer", "--format", "table"], stdin: Self.washerTrace)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("time (UTC)  kind") == true)
        #expect(lines.contains { $0.contains("start") && $0.contains("Washer started: Cotton") })
    }

    @Test func otherTuningShowsWhatItWouldCost() throws {
        let scratch = try Scratch()
        let trace = scratch.write("washer.jsonl", Self.washerTrace)
        let fine = try CycletrackProcess.run(["replay", "--appliance", "washer", trace, "--steps", #"{"step":5}"#])
        #expect(fine.status == 0)
        #expect(fine.stderr.contains("dropped to fit the limit:"))
        #expect(try jsonLines(fine.stdout).count <= 18)
        let tight = try CycletrackProcess.run(["replay", "--appliance", "washer", trace, "--cycle-push-limit", "8"])
        #expect(tight.status == 0)
        #expect(try jsonLines(tight.stdout).count <= 8)
        #expect(tight.stderr.contains("per-cycle limit: 8"))
    }

    static let failures: [(arguments: [String], trace: String?, status: Int32, message: String)] = [
        (["--appliance", "washer", "/nonexistent/trace.jsonl"], nil, 66, "trace file /nonexistent/trace.jsonl does not exist"),
        (["--appliance", "washer", "TRACE"], "{\"at\": \"2026-11-02T08:00:00Z\", \"states\": {}}\nnot json\n", 78, "line 2"),
        (["--appliance", "washer", "TRACE"],
         "{\"at\": \"2026-11-02T09:00:00Z\", \"states\": {}}\n{\"at\": \"2026-11-02T08:00:00Z\", \"states\": {}}\n", 78, "line 2"),
        (["--appliance", "washer", "--format", "yaml", "TRACE"], "", 64, "--format expects one of jsonl|table"),
        (["--appliance", "washer", "--steps", "{step:5}", "TRACE"], "", 64, "--steps expects JSON"),
        (["TRACE"], "", 64, "replay needs --appliance ID"),
        (["--appliance", "washer", "--bogus", "TRACE"], "", 64, "unknown option --bogus"),
    ]

    @Test(arguments: failures)
    func badInputExitsWithTheDocumentedStatusAndSaysWhere(arguments: [String], trace: String?, status: Int32, message: String) throws {
        let scratch = try Scratch()
        let path = scratch.write("trace.jsonl", trace ?? "")
        let result = try CycletrackProcess.run(["replay"] + arguments.map { $0 == "TRACE" ? path : $0 })
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    @Test func anApplianceTheConfigDoesNotHaveIsNamedWithTheOnesItHas() throws {
        let scratch = try Scratch()
        let config = scratch.write("cycletrack.json", #"{"appliances": [{"id": "dishwasher"}, {"id": "oven"}]}"#)
        let trace = scratch.write("washer.jsonl", Self.washerTrace)
        let result = try CycletrackProcess.run(["replay", "--config", config, "--appliance", "washer", trace])
        #expect(result.status == 78)
        #expect(result.stderr.contains("no appliance 'washer'; configured appliances: dishwasher, oven"))
    }

    @Test func theConfigsTuningIsUsed() throws {
        let scratch = try Scratch()
        let config = scratch.write("cycletrack.json", #"{"appliances": [{"id": "washer", "name": "Waschmaschine", "notify_end": false, "texts": {"finished": "{name} fertig"}}]}"#)
        let trace = scratch.write("washer.jsonl", Self.washerTrace)
        let result = try CycletrackProcess.run(["replay", "--config", config, "--appliance", "washer", trace])
        #expect(result.status == 0)
        let calls = try jsonLines(result.stdout)
        #expect(calls.last?["kind"] as? String == "clear")
        #expect(((calls.last?["body"] as? [String: Any])?["title"] as? String) == "Waschmaschine fertig")
    }

    @Test func recordedReplaysCanBeQueriedAndReplayedFromTheDatabase() throws {
        let scratch = try Scratch()
        let trace = scratch.write("washer.jsonl", Self.washerTrace)
        let database = scratch.path + "/history.sqlite"
        let played = try CycletrackProcess.run(["replay", "--appliance", "washer", trace, "--record", database])
        #expect(played.status == 0)

        let query = try CycletrackProcess.run(["query", "--db", database, "--format", "json"])
        #expect(query.status == 0)
        let cycles = try #require(JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        #expect(cycles.count == 1)
        #expect(cycles.first?["outcome"] as? String == "finished")
        #expect(cycles.first?["appliance"] as? String == "washer")
        // Marked not sent, the replayed calls still count as the cycle's pushes, so that
        // tunings recorded this way can be compared with `stats`.
        #expect(cycles.first?["pushes"] as? Int == (try jsonLines(played.stdout)).count)
        #expect(cycles.first?["source"] as? String == "replay")

        let stats = try CycletrackProcess.run(["stats", "--db", database, "--by", "program", "--format", "csv"])
        #expect(stats.status == 0)
        #expect(stats.stdout.contains("laundry_care_washer_program_cotton") || stats.stdout.contains("Cotton"))

        let id = try #require(cycles.first?["id"] as? Int)
        let again = try CycletrackProcess.run(["replay", "--cycle", String(id), "--db", database])
        #expect(again.status == 0)
        #expect(try jsonLines(again.stdout).map { $0["kind"] as? String } == jsonLines(played.stdout).map { $0["kind"] as? String })
    }

    @Test func historyCommandsRefuseWhatTheyCannotRead() throws {
        let scratch = try Scratch()
        let notSQLite = scratch.write("notes.sqlite", "these are my notes, not a database\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: notSQLite))
        for (arguments, status) in [(["query", "--db", scratch.path + "/missing.sqlite"], Int32(66)), (["stats", "--db", notSQLite], 78),
                                    (["query", "--db", notSQLite], 78)] {
            let result = try CycletrackProcess.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: notSQLite)) == before)
        #expect(!scratch.exists("missing.sqlite"))
        let badSince = try CycletrackProcess.run(["query", "--db", notSQLite, "--since", "last tuesday"])
        #expect(badSince.status == 64, "a usage error, found before the file is read")
    }

    @Test(.enabled(if: SharedTraces.directory != nil, "needs docs/examples"))
    func theSharedExamplesReplayThroughTheExecutable() throws {
        let directory = try #require(SharedTraces.directory)
        let traces = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }
        #expect(!traces.isEmpty)
        for name in traces {
            let appliance = String(name.prefix { $0 != "-" })
            let result = try CycletrackProcess.run(["replay", "--appliance", appliance, directory + "/" + name])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let kinds = try jsonLines(result.stdout).compactMap { $0["kind"] as? String }
            // As many starts as its .expect.json says (the anomaly examples carry a history); one clear at
            // each cycle's end and one before each Live Activity replacement (its `clears`); each within 18 calls.
            let expectPath = directory + "/" + name.dropLast(".jsonl".count) + ".expect.json"
            let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: expectPath))) as? [String: Any]
            let cycles = try #require(expected?["starts"] as? Int, "\(name)")
            #expect(kinds.filter { $0 == "start" }.count == cycles, "\(name)")
            #expect(kinds.filter { $0 == "clear" }.count == expected?["clears"] as? Int, "\(name)")
            #expect(kinds.filter { $0 != "reminder" }.count <= 18 * cycles, "\(name)")
        }
    }
}
