import CycleCore
import Foundation
import Testing

/// Issue 30, item 1 against a real Home Assistant: the home_connect stand-in's dishwasher
/// reports `error` with its door open mid-cycle, then runs on (docs/CYCLES.md, "Errors").
extension ServiceWithHomeAssistantTests {
    /// The cycle as HA shows it, each line every role: a run, the error with the door open,
    /// the run again, the end. Progress stays under the first step, so the only alerting
    /// calls are the start, the error's note and the end.
    static let errorLines: [[String: String]] = {
        let finish = "2026-11-02T11:37:00+00:00"
        func line(_ state: String, _ progress: String, _ door: String) -> [String: String] {
            ["operation_state": state, "progress": progress, "finish_time": finish, "program": program, "door": door]
        }
        return [
            ["operation_state": "ready", "progress": "unavailable", "finish_time": "unavailable", "program": "unknown",
             "door": "closed"],
            line("run", "2", "closed"), line("run", "3", "closed"),
            line("error", "3", "open"), line("error", "3", "open"),
            line("run", "4", "closed"), line("run", "5", "closed"),
            ["operation_state": "finished", "progress": "100", "finish_time": "unavailable", "program": program,
             "door": "closed"],
        ]
    }()

    @Test("An error in the Home Connect stand-in gives exactly one alerting call, with the reason; its recovery one quiet update")
    func anErrorMidCycleAlertsOnceWithItsReason() async throws {
        let service = try startService()
        for line in Self.errorLines { try await show(line, to: service) }
        let expected = replayed(Self.errorLines)
        let calls = try await ha.waitForSupernotifyCalls(count: expected.count)
        try await waitFor("the end recorded last") { kinds(try ha.supernotifyCalls()).last == "end" }
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)
        let all = try ha.supernotifyCalls()
        #expect(all.count == expected.count, "\(all.map(\.canonicalData))")
        // Exactly what replay sends for the same lines: nothing more, nothing less.
        #expect(calls.map { comparable($0.data) } == expected.map { call in
            comparable(try! JSONSerialization.jsonObject(with: Data(call.bodyJSON().utf8)) as! [String: Any])  // our own JSON
        })
        let errors = all.filter { ($0.data["message"] as? String)?.hasPrefix("Error") == true }
        #expect(errors.count == 1, "\(all.map(\.canonicalData))")
        let note = try #require(errors.first)
        #expect(note.data["title"] as? String == "Dishwasher")
        #expect(note.data["message"] as? String == "Error: door open")
        let extra = note.data["extra_data"] as? [String: Any] ?? [:]
        #expect(extra["silent"] == nil && extra["live_update"] as? Bool == true, "alerting, on the Live Activity")
        // After the note: one quiet update (the resume), then the clear and the end.
        let index = try #require(all.firstIndex { ($0.data["message"] as? String) == "Error: door open" })
        #expect(kinds(Array(all[(index + 1)...])) == ["quiet", "clear", "end"], "\(all.map(\.canonicalData))")
        #expect(kinds(all).filter { $0 == "start" }.count == 2, "the start and the note alert; nothing else but the end")

        let query = try CycletrackProcess.run(["query", "--db", database, "--format", "json"])
        let cycles = try #require(JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        #expect(cycles.count == 1)
        #expect(cycles.first?["outcome"] as? String == "finished", "the error cleared: the cycle ran on")
    }

    /// What replay sends for `lines`, one a minute.
    private func replayed(_ lines: [[String: String]]) -> [CycleCore.SupernotifyCall] {
        let start = Date(timeIntervalSince1970: 1_793_606_400)
        let observations = lines.enumerated().map { index, line in
            var raw: [Role: String] = [:]
            for (key, value) in line { if let role = Role(rawValue: key) { raw[role] = value } }
            return Observation(at: start.addingTimeInterval(Double(index) * 60), raw: raw, units: [.progress: "%"])
        }
        return Replay.run(settings: settings, observations: observations).calls
    }
}
