import Foundation
import Testing
@testable import CycleCore

/// Issue 28: real smart-plug recordings from other households (`../shared/realdata/plugs/`),
/// replayed through the same household `run` drives, with the plain configuration a new
/// user writes (a name, the plug) and nothing tuned, against the true cycles written in
/// `Fixtures/RealPlugs/truth.json` (how they were read: its README).
@Suite(.enabled(if: RealPlugRecording.available, "../shared/realdata/plugs is absent (as in a user's clone)"))
struct RealPlugCorpusTests {
    struct TrueCycle: Decodable {
        var start: String
        var end: String?
        var unjudgedUntil: String?
        var why: String

        enum CodingKeys: String, CodingKey {
            case start, end, why
            case unjudgedUntil = "unjudged_until"
        }
    }

    struct Recording: Decodable, CustomTestStringConvertible {
        var id: String
        var file: String
        var format: String
        var stored: [String]?
        var name: String
        var cycles: [TrueCycle]
        /// Why a recording is still found wrong, when it is (a known issue).
        var known: String?
        var testDescription: String { id }
    }

    struct Truth: Decodable {
        var recordings: [Recording]
    }

    static let truthFile = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures/RealPlugs/truth.json")

    static let recordings: [Recording] = {
        guard let data = try? Data(contentsOf: truthFile),
              let truth = try? JSONDecoder().decode(Truth.self, from: data) else { return [] }
        return truth.recordings
    }()

    /// What a new user writes: the name (which says the kind), the plug; nothing tuned.
    static func settings(_ recording: Recording) -> ApplianceSettings {
        var settings = ApplianceSettings(id: recording.name.lowercased().replacingOccurrences(of: " ", with: "_"),
                                         name: recording.name)
        settings.profile = .plug
        return settings
    }

    static func replay(_ recording: Recording) throws -> ReplayResult {
        let readings = try RealPlugRecording.readings(file: recording.file, format: recording.format,
                                                      stored: recording.stored ?? [])
        return Replay.run(settings: settings(recording), observations: readings)
    }

    /// The verdict on one recording: its true cycles found right, and what went wrong.
    static func judge(_ recording: Recording, _ result: ReplayResult) -> PlugVerdict {
        PlugVerdict.judge(truth: recording.cycles.map {
            PlugVerdict.TrueCycle(start: ISOTime.parse($0.start)!, end: $0.end.flatMap(ISOTime.parse),
                                  unjudgedUntil: $0.unjudgedUntil.flatMap(ISOTime.parse))
        }, found: result.cycles)
    }

    @Test func theTruthNamesEveryRecording() {
        #expect(Self.recordings.count == 19)
        #expect(Self.recordings.flatMap(\.cycles).count == 33)
    }

    @Test(arguments: recordings)
    func eachRecordingsCyclesAreFoundRight(_ recording: Recording) throws {
        let result = try Self.replay(recording)
        let verdict = Self.judge(recording, result)
        let check = {
            #expect(verdict.problems.isEmpty, "\(recording.id): \(verdict.problems.joined(separator: "; "))")
            #expect(verdict.right == verdict.judged)
        }
        if let known = recording.known {
            withKnownIssue(Comment(rawValue: known)) { check() }
        } else {
            check()
        }
    }

    /// One appliance's stored cycles replayed one after the other, each read with what
    /// the plug learned from those before it (rests, standby, interval): still all right.
    @Test(arguments: ["washer-stored-", "dishwasher-stored-"])
    func storedCyclesInARowStayRightAsThePlugLearns(_ prefix: String) throws {
        let recordings = Self.recordings.filter { $0.id.hasPrefix(prefix) }
        let first = try #require(recordings.first)
        var all = first
        all.id = prefix + "all"
        all.stored = recordings.flatMap { $0.stored ?? [] }
        all.cycles = recordings.flatMap(\.cycles)
        let readings = try RealPlugRecording.readings(file: all.file, format: all.format, stored: all.stored ?? [])
        var learned: [PlugSignature] = []
        let result = Replay.run(settings: Self.settings(all), observations: readings) { _, household in
            if let signature = household.tracker(Self.settings(all).id)?.plugSignature { learned.append(signature) }
        }
        let verdict = Self.judge(all, result)
        #expect(verdict.problems.isEmpty, "\(verdict.problems.joined(separator: "; "))")
        #expect(verdict.right == recordings.count)
        #expect(learned.last?.cycles == recordings.count)
    }

    /// The corpus result, printed, and the README's "Measured" row that states it.
    @Test func theReadmeGivesTheCorpusResult() throws {
        var right = 0
        var judged = 0
        var recordingsRight = 0
        for recording in Self.recordings {
            let verdict = Self.judge(recording, try Self.replay(recording))
            print("real plug recording \(recording.id): \(verdict.right) of \(verdict.judged) cycles right"
                + (verdict.problems.isEmpty ? "" : " — " + verdict.problems.joined(separator: "; ")))
            right += verdict.right
            judged += verdict.judged
            if verdict.problems.isEmpty { recordingsRight += 1 }
        }
        let row = "| smart plugs, \(Self.recordings.count) real recordings of other households (issue 28) | "
            + "\(right) of \(judged) cycles right; \(recordingsRight) of \(Self.recordings.count) recordings all right |"
        print(row)
        let readme = try String(decoding: Data(contentsOf: Self.truthFile.deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "README.md")), as: UTF8.self)
        #expect(readme.contains(row), "README.md's Measured table should have: \(row)")
    }
}

/// How the cycles a replay found compare with the true ones: a true cycle is right when
/// exactly one cycle found overlaps it, and that one overlaps no other, started within 2
/// minutes of it, ended within 5, said so within 10, and finished. A cycle found that
/// overlaps no true cycle is a phantom; one still open is left open.
struct PlugVerdict {
    struct TrueCycle {
        var start: Date
        var end: Date?
        var unjudgedUntil: Date?
    }

    var judged = 0
    var right = 0
    var problems: [String] = []

    static func judge(truth: [TrueCycle], found: [ReplayCycle]) -> PlugVerdict {
        var verdict = PlugVerdict()
        let unjudged = truth.compactMap { cycle in cycle.unjudgedUntil.map { (cycle.start, $0) } }
        let far = Date.distantFuture
        func overlaps(_ cycle: ReplayCycle, _ from: Date, _ to: Date) -> Bool {
            cycle.startedAt <= to && (cycle.endedAt ?? far) >= from
        }
        let judgedFound = found.filter { cycle in !unjudged.contains { overlaps(cycle, $0.0, $0.1) } }
        let judgedTruth = truth.filter { cycle in
            cycle.end != nil && !unjudged.contains { cycle.start <= $0.1 && cycle.end! >= $0.0 }
        }
        verdict.judged = judgedTruth.count
        for cycle in judgedFound where cycle.endedAt == nil {
            verdict.problems.append("the cycle started \(ISOTime.format(cycle.startedAt)) is left open")
        }
        for cycle in judgedFound where !judgedTruth.contains(where: { overlaps(cycle, $0.start, $0.end!) }) {
            verdict.problems.append("a phantom cycle \(ISOTime.format(cycle.startedAt))–\(cycle.endedAt.map(ISOTime.format) ?? "open")")
        }
        for truth in judgedTruth {
            let end = truth.end!
            let matches = judgedFound.filter { overlaps($0, truth.start, end) }
            let label = "the cycle \(ISOTime.format(truth.start))–\(ISOTime.format(end))"
            guard matches.count == 1, let match = matches.first else {
                verdict.problems.append("\(label) is found as \(matches.count) cycles (split)")
                continue
            }
            if judgedTruth.filter({ overlaps(match, $0.start, $0.end!) }).count > 1 {
                verdict.problems.append("\(label) is merged with another")
                continue
            }
            let startOff = match.startedAt.timeIntervalSince(truth.start)
            let endOff = (match.endedAt ?? far).timeIntervalSince(end)
            let said = match.calls.first { $0.kind == .end }?.at
            let saidLate = said.map { $0.timeIntervalSince(end) } ?? .infinity
            if abs(startOff) > 120 || abs(endOff) > 300 || saidLate > 600 || match.outcome != .finished {
                func seconds(_ value: Double) -> String { value.isFinite && abs(value) < 1e9 ? "\(Int(value)) s" : "never" }
                verdict.problems.append("\(label): started \(seconds(startOff)), ended \(seconds(endOff)) off, said \(seconds(saidLate)) after")
            } else {
                verdict.right += 1
            }
        }
        return verdict
    }
}
