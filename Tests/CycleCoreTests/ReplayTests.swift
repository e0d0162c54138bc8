import FoundationEssentials
import Testing
@testable import CycleCore

/// Trace lines, `Replay.run`, and the traces every engineer shares.
@Suite struct ReplayTests {
    // MARK: Trace lines

    @Test func aTraceLineIsRead() throws {
        let line = try TraceLine.parse(
            #"{"at": "2026-11-02T08:00:00Z", "states": {"operation_state": "run", "progress": "5", "humidity": "40"}}"#,
            line: 1)
        #expect(line.at == zero)
        #expect(line.raw == [.operationState: "run", .progress: "5"])
        #expect(line.unknownRoles == ["humidity"])
    }

    @Test(arguments: [
        ("not json", "expected a JSON object {\"at\": ..., \"states\": {...}}, found invalid JSON"),
        (#"{"states": {}}"#, "expected \"at\" with an ISO 8601 time, found none"),
        (#"{"at": "yesterday", "states": {}}"#, "expected \"at\" as an ISO 8601 time with a zone, found \"yesterday\""),
        (#"{"at": 5, "states": {}}"#, "expected \"at\" as an ISO 8601 time with a zone, found the number 5.0"),
        (#"{"at": "2026-11-02T08:00:00Z"}"#, "expected a \"states\" object, found none"),
        (#"{"at": "2026-11-02T08:00:00Z", "states": {"progress": 42}}"#, "expected states.progress as a string, found the number 42.0"),
        (#"{"at": "2026-11-02T08:00:00Z", "states": {"program": null}}"#, "expected states.program as a string, found null"),
    ])
    func badTraceLines(text: String, message: String) {
        #expect(throws: TraceError(line: 7, message: message)) { try TraceLine.parse(text, line: 7) }
    }

    @Test func replayNamesTheLineOutOfOrderOrInvalid() {
        let lines = [traceLine(minute(1), ["operation_state": "run"]), "", traceLine(zero, ["operation_state": "run"])]
        #expect(throws: TraceError(line: 3, message: "expected a time at or after 2026-11-02T08:01:00Z, found 2026-11-02T08:00:00Z (lines must be in time order)")) {
            try Replay.run(settings: .dishwasher(), lines: numbered(lines))
        }
        let broken = [traceLine(zero, ["operation_state": "run"]), "   ", "{"]
        #expect(throws: TraceError.self) { try Replay.run(settings: .dishwasher(), lines: numbered(broken)) }
        do {
            _ = try Replay.run(settings: .dishwasher(), lines: numbered(broken))
        } catch {
            #expect(error.line == 3)
            #expect(error.description.hasPrefix("line 3: "))
        }
    }

    @Test func theDailyBudgetIsCountedPerUTCDayOfTheReplay() throws {
        var lines: [String] = []
        for start in [0.0, 120, 24 * 60] as [Double] {
            lines.append(traceLine(minute(start), ["operation_state": "run", "progress": "0", "finish_time": finishA]))
            lines.append(traceLine(minute(start + 60), ["operation_state": "finished"]))
        }
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines), dailyLimit: 3)
        #expect(result.cycles.map(\.calls.count) == [3, 0, 3])
        #expect(result.effects.heldBack == ["start start"])
        #expect(result.cycles.map(\.outcome) == [.finished, .finished, .finished])
    }

    // MARK: Own fixtures

    @Test func coffeeReportingProgressSeveralTimesASecond() throws {
        let espresso = "consumer_products_coffee_maker_program_beverage_espresso"
        var lines = [traceLine(zero, ["operation_state": "ready", "program": espresso])]
        for fifth in 0...450 {
            lines.append(traceLine(at(1 + Double(fifth) / 5), [
                "operation_state": "run", "program": espresso, "progress": String(min(fifth * 100 / 450, 100)),
            ]))
        }
        lines.append(traceLine(at(95), ["operation_state": "ready", "program": espresso]))
        let settings = ApplianceSettings.dishwasher { $0.id = "coffee"; $0.name = "Coffee" }
        let result = try Replay.run(settings: settings, lines: numbered(lines))
        #expect(result.cycles.count == 1)
        #expect(result.observations.count == 453)
        let calls = result.calls
        #expect(calls.count <= 18)
        let updates = calls.filter { $0.kind == .quiet }
        #expect(updates.count >= 3)
        #expect(updates.first.map { $0.at.timeIntervalSince(at(1)) >= 30 } == true)
        for (earlier, later) in zip(updates, updates.dropFirst()) { #expect(later.at.timeIntervalSince(earlier.at) >= 15) }
        #expect(calls.first?.extra["notification_icon"] == .string("mdi:coffee-maker"))
        #expect(calls.last?.message == "Espresso done in 1 min")
    }

    @Test func noProgressNoFinishTimeHeartbeats() throws {
        let cotton = "laundry_care_dryer_program_cotton"
        var lines: [String] = []
        for minutes in stride(from: 0.0, through: 79, by: 2) {
            lines.append(traceLine(minute(minutes), ["operation_state": "run", "program": cotton, "progress": "unavailable"]))
        }
        lines.append(traceLine(minute(80), ["operation_state": "ready", "program": cotton]))
        let result = try Replay.run(settings: .dishwasher { $0.id = "dryer"; $0.name = "Dryer" }, lines: numbered(lines))
        #expect(result.calls.map(\.reason) == ["start", "heartbeat", "heartbeat", "heartbeat", "clear: finished", "end: finished"])
        #expect(result.calls.map(\.at) == [zero, minute(25), minute(50), minute(75), minute(80), minute(80)])
        #expect(result.calls.allSatisfy { $0.when == nil && $0.progress == nil })
        #expect(result.calls.dropFirst().first?.message == "Cotton")
    }

    @Test func finishTimeCorrections() throws {
        let finishes = ["11:37:00", "11:37:40", "11:36:30", "11:49:00", "11:50:30", "11:44:00", "11:44:00"]
        var lines: [String] = []
        for (index, finish) in finishes.enumerated() {
            lines.append(traceLine(minute(Double(index) * 10), [
                "operation_state": "run", "program": eco50, "progress": String(index), "finish_time": "2026-11-02T\(finish)+00:00",
            ]))
        }
        lines.append(traceLine(minute(70), ["operation_state": "finished", "finish_time": "2026-11-02T09:10:30+00:00"]))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines))
        let corrections = result.calls.filter { $0.reason == "finish time" }
        #expect(corrections.map(\.at) == [minute(30), minute(50)])
        #expect(corrections.map(\.when) == [1_793_620_140, 1_793_619_840])
        #expect(result.calls.map(\.kind) == [.start, .quiet, .quiet, .clear, .end])
    }

    @Test func twoPauses() throws {
        let sequence: [(Double, String, String)] = [
            (0, "run", "10:00:00"), (5, "pause", "10:05:00"), (6, "pause", "10:06:00"), (10, "run", "10:10:00"),
            (20, "actionrequired", "10:20:00"), (30, "run", "10:30:00"), (40, "finished", "10:30:00"),
        ]
        let lines = sequence.map { minutes, state, finish in
            traceLine(minute(minutes), ["operation_state": state, "program": eco50, "progress": "5",
                                        "finish_time": "2026-11-02T\(finish)+00:00"])
        }
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines))
        #expect(result.calls.map(\.reason) == ["start", "pause", "resume", "anomaly: action required", "resume", "clear: finished", "end: finished"])
                let paused = result.calls.filter { $0.message == "Paused" || $0.message == "Action required" }
        #expect(paused.count == 2)
        #expect(paused.allSatisfy { $0.when == nil && $0.extra["critical_text"] == .string("5%") })
        #expect(result.calls.filter { $0.reason == "resume" }.map(\.when) == [1_793_614_200, 1_793_615_400])
    }

    @Test func aLostCycle() throws {
        var lines = [traceLine(zero, ["operation_state": "run", "program": eco50, "progress": "10", "finish_time": finishA])]
        for hour in 1...8 { lines.append(traceLine(minute(Double(hour) * 60), ["operation_state": "unavailable"])) }
        lines.append(traceLine(minute(600), ["operation_state": "ready"]))
        let result = try Replay.run(settings: .dishwasher(), lines: numbered(lines))
        #expect(result.cycles.count == 1)
        #expect(result.cycles.first?.outcome == .lost)
        #expect(result.cycles.first?.endedAt == minute(420))
        #expect(result.calls.map(\.kind) == [.start, .clear])
        #expect(result.calls.last?.at == minute(420))
        #expect(result.calls.last?.message == "Dishwasher stopped reporting")
        #expect(result.effects.outcomes == [.lost])
    }

    @Test func replayReportsWarningsAndDroppedSteps() throws {
        let lines = [traceLine(zero, ["operation_state": "run"]), traceLine(minute(1), ["operation_state": "wobbling"])]
        let settings = ApplianceSettings.dishwasher { $0.cyclePushLimit = 8 }
        let result = try Replay.run(settings: settings, lines: numbered(lines))
        #expect(result.warnings == ["unrecognised operation state 'wobbling': previous state stands"])
        #expect(result.droppedSteps == [10, 20, 30, 40, 50, 60, 70, 80])
    }

    // MARK: Shared traces

    @Test(.enabled(if: SharedTraces.folder != nil, "no shared traces beside the package"))
    func sharedTracesMeetTheirExpectations() throws {
        let folder = try #require(SharedTraces.folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(!names.isEmpty)
        for name in names { try SharedTraces.check(folder + "/" + name) }
    }
}

/// The example traces in `docs/examples` with their `.expect.json`.
enum SharedTraces {
    /// The repository's `docs/examples`.
    static let folder: String? = {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for candidate in ["docs/examples"] {
            let path = root.appending(path: candidate).standardizedFileURL.path
            var isDirectory: Bool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory { return path }
        }
        return nil
    }()

    struct Expectation: Decodable {
        /// `appliance`: another appliance's cycle (a trace of several); none: the trace's own.
        struct Cycle: Decodable { var appliance: String?; var outcome: CycleOutcome; var program: String? }
        var cycles: [Cycle]
        var starts: Int
        var clears: Int
        var ends: Int
        var maxCallsPerCycle: Int
        var mustStepThrough: [Int]?
        var hasFinishTime: Bool?
        var hasPauseMessage: Bool?
        var heartbeatMinutes: Double?
        /// Live Activity replacements; with it, no activity lives 8 hours.
        var replacements: Int?
        /// Every anomaly note, "kind reason", in order; none when absent.
        var anomalies: [String]?
        /// The call that follows each anomaly note, "kind reason": a quiet one when it cleared.
        var afterAnomalies: [String]?
        /// Every call that alerts, "kind: title · message", in order; when present, nothing else alerts.
        var notifications: [String]?
        /// Every delayed start's wait put on the lock screen, "time message", in order; none when absent.
        var waits: [String]?

        enum CodingKeys: String, CodingKey {
            case cycles, starts, clears, ends
            case maxCallsPerCycle = "max_calls_per_cycle"
            case mustStepThrough = "must_step_through"
            case hasFinishTime = "has_finish_time"
            case hasPauseMessage = "has_pause_message"
            case heartbeatMinutes = "heartbeat_minutes"
            case replacements
            case anomalies, notifications, waits
            case afterAnomalies = "after_anomalies"
        }
    }

    static func check(_ path: String) throws {
        let file = String(path.split(separator: "/").last ?? "")
        let id = String(file.split(separator: "-").first ?? "")
        let settings = ApplianceSettings(id: id, name: ApplianceName.readable(id: id))
        let text = try String(decoding: Data(contentsOf: URL(filePath: path)), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            (number: $0.offset + 1, text: String($0.element))
        }
        let expectPath = String(path.dropLast(".jsonl".count)) + ".expect.json"
        let expected = try JSONDecoder().decode(Expectation.self, from: Data(contentsOf: URL(filePath: expectPath)))
        // The other appliances its lines name, each with the defaults of its id, as this one.
        let others = Set(try Replay.entries(lines: lines).entries.compactMap(\.appliance)).sorted().map {
            ApplianceSettings(id: $0, name: ApplianceName.readable(id: $0))
        }
        let result = try Replay.run(settings: settings, others: others, lines: lines)
        let calls = result.calls
        let live = calls.filter { [.start, .quiet, .progress].contains($0.kind) }
        let comment = Comment(rawValue: file)

        #expect(result.cycles.map(\.outcome) == expected.cycles.map(\.outcome), comment)
        #expect(result.cycles.map { $0.applianceID == id ? nil : $0.applianceID } == expected.cycles.map(\.appliance), comment)
        #expect(result.cycles.map(\.program) == expected.cycles.map(\.program), comment)
        #expect(calls.filter { $0.reason == "start" }.count == expected.starts, comment)
        #expect(calls.filter { $0.kind == .clear }.count == expected.clears, comment)
        #expect(calls.filter { $0.kind == .end }.count == expected.ends, comment)
        for cycle in result.cycles { #expect(cycle.calls.count <= expected.maxCallsPerCycle, comment) }
        let notes = calls.filter { $0.reason.hasPrefix("anomaly") }.map { "\($0.kind.rawValue) \($0.reason)" }
        #expect(notes == (expected.anomalies ?? []), comment)
        let waits = calls.filter { $0.reason == DelayedStart.startReason }.map { "\(ISOTime.format($0.at)) \($0.message ?? "")" }
        #expect(waits == (expected.waits ?? []), comment)
        if let after = expected.afterAnomalies {
            let following = calls.indices.filter { calls[$0].reason.hasPrefix("anomaly") }.map { index in
                index + 1 < calls.count ? "\(calls[index + 1].kind.rawValue) \(calls[index + 1].reason)" : "nothing"
            }
            #expect(following == after, comment)
        }
        if let steps = expected.mustStepThrough {
            for (index, step) in steps.enumerated() {
                let next = index + 1 < steps.count ? steps[index + 1] : Int.max
                #expect(live.contains { ($0.progress ?? -1) >= step && ($0.progress ?? -1) < next }, "\(file): step \(step)")
            }
        }
        if let hasFinish = expected.hasFinishTime {
            #expect(live.contains { $0.when != nil } == hasFinish, comment)
        }
        if expected.hasPauseMessage == true {
            #expect(calls.contains { $0.message == "Paused" }, comment)
        }
        if let minutes = expected.heartbeatMinutes {
            for cycle in result.cycles {
                let times = cycle.calls.filter { [.start, .quiet, .progress].contains($0.kind) }.map(\.at)
                for (earlier, later) in zip(times, times.dropFirst()) {
                    #expect(later.timeIntervalSince(earlier) <= minutes * 60, comment)
                }
            }
            #expect(calls.contains { $0.reason == "heartbeat" }, comment)
        }
        if let notifications = expected.notifications {
            #expect(calls.filter(\.kind.isAlerting).map(Self.shown) == notifications, comment)
        }
        if let replacements = expected.replacements { checkReplacements(result, count: replacements, comment: comment) }
    }

    /// A call as the phone shows it: "kind: title · message".
    static func shown(_ call: SupernotifyCall) -> String {
        let title = if case .string(let text)? = call.body["title"] { text } else { "" }
        return "\(call.kind.rawValue): \(title) · \(call.message ?? "")"
    }

    /// Each replacement is a clear and a quiet start at one moment, and no activity (from
    /// its start to the next replacement or the cycle's clear) lives 8 hours.
    static func checkReplacements(_ result: ReplayResult, count: Int, comment: Comment) {
        #expect(result.calls.filter { $0.reason == "replace" }.count == count, comment)
        for cycle in result.cycles {
            // A delayed start's wait opens the activity the run then updates.
            let opening = cycle.calls.first { [DelayedStart.startReason, "start"].contains($0.reason) }
            let starts = [opening?.at].compactMap(\.self) + cycle.calls.filter { $0.reason == "replace" }.map(\.at)
            let ends = cycle.calls.filter { $0.kind == .clear }.map(\.at)
            #expect(starts.count == ends.count, comment)
            for (start, end) in zip(starts, ends) {
                #expect(end.timeIntervalSince(start) < ActivityRenewal.lifetime, comment)
            }
            for replace in cycle.calls where replace.reason == "replace" {
                #expect(replace.kind == .quiet, comment)
                #expect(cycle.calls.contains { $0.reason == "clear: replace" && $0.at == replace.at }, comment)
            }
        }
    }
}
