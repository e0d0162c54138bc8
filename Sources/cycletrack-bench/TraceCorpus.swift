import CycleCore
import FoundationEssentials

/// The traces the push counts and the throughput are measured over: the example
/// traces from the shared directory (when there) and the generated ones.
struct TraceCorpus {
    var traces: [BenchTrace]
    /// Why the examples were left out, if they were.
    var note: String?

    /// The examples in `directory` (skipped with a note when it doesn't exist), then
    /// the generated traces.
    static func load(examplesIn directory: String, seed: UInt64) throws(BenchError) -> TraceCorpus {
        var traces: [BenchTrace] = []
        var note: String?
        var isDirectory = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory {
            traces = try examples(in: directory)
            if traces.isEmpty { note = "no *.jsonl example traces in \(directory)" }
        } else {
            note = "example traces skipped: \(directory) does not exist (give --traces DIR)"
        }
        traces += TraceGenerator.corpus(seed: seed)
        return TraceCorpus(traces: traces, note: note)
    }

    var observationCount: Int { traces.reduce(0) { $0 + $1.observations.count } }

    private static func examples(in directory: String) throws(BenchError) -> [BenchTrace] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }.sorted()
        } catch {
            throw BenchError("cannot list the example traces in \(directory): \(error)")
        }
        var traces: [BenchTrace] = []
        for name in names {
            let path = directory + "/" + name
            let text = try readText(path)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
                (number: $0.offset + 1, text: String($0.element))
            }
            let parsed: (observations: [Observation], warnings: [String])
            do {
                parsed = try Replay.observations(lines: lines)
            } catch {
                throw BenchError("example trace \(path) is not a valid trace: \(error)")
            }
            let stem = String(name.dropLast(".jsonl".count))
            let id = String(stem.prefix { $0 != "-" })
            traces.append(BenchTrace(
                name: stem, scenario: "example",
                settings: ApplianceSettings(id: id, name: id.prefix(1).uppercased() + id.dropFirst()),
                observations: parsed.observations,
                expectedCycles: try expectedCycles(directory + "/" + stem + ".expect.json")))
        }
        return traces
    }

    /// The number of cycles an example's `.expect.json` lists, if it has one: the traced
    /// appliance's, since the benchmark replays it alone (a cycle of another has `appliance`).
    private static func expectedCycles(_ path: String) throws(BenchError) -> Int? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        struct Expectation: Decodable {
            struct Cycle: Decodable { var appliance: String? }
            var cycles: [Cycle]?
        }
        let text = try readText(path)
        do {
            return try JSONDecoder().decode(Expectation.self, from: Data(text.utf8)).cycles?.filter { $0.appliance == nil }.count
        } catch {
            throw BenchError("\(path) is not the expected JSON ({\"cycles\": [...], ...}): \(error)")
        }
    }

    static func readText(_ path: String) throws(BenchError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
