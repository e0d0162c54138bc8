import Foundation
@testable import CycleCore

/// Real smart-plug recordings (`../shared/realdata/plugs/`, see its SOURCES.md) read into
/// the power readings a plug's `sensor` gives Home Assistant, for `Replay` (issue 28).
/// The recordings stay where they are; this reads them.
///
/// - `ha_history`: an HA history export, `entity_id,state,last_changed`, one row per state
///   change. A leading run of at least 24 rows on whole hours is the hourly statistics an
///   export may begin with (issue 344's): means, not readings, left out.
/// - `washdata`: WashData's export or diagnostics, with `past_cycles` (in `data` or
///   `data.store_data`), each with `start_time` and `power_data` `[seconds after start, watts]`.
///   The chosen stored cycles, in time order, become one timeline: half an hour before the
///   first, and after each up to an hour and a half (or the next), every `sampling_interval`
///   seconds, the plug as the appliance left it: the cycle's samples after its last draw
///   above 5 W, repeated in turn (else its lowest sample).
enum RealPlugRecording {
    /// Where the recordings are, beside the repository (absent in a user's clone).
    static let directory = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/realdata/plugs")

    static var available: Bool { FileManager.default.fileExists(atPath: directory.appending(path: "SOURCES.md").path) }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The readings of `file` (relative to `directory`) in `format`; `stored`: the WashData cycles by id.
    static func readings(file: String, format: String, stored: [String] = []) throws -> [Observation] {
        let data = try Data(contentsOf: directory.appending(path: file))
        switch format {
        case "ha_history": return try history(String(decoding: data, as: UTF8.self), file: file)
        case "washdata": return try washData(data, ids: stored, file: file)
        default: throw Failure(description: "\(file): expected format ha_history or washdata, found \(format)")
        }
    }

    static func observation(_ at: Date, _ state: String) -> Observation {
        Observation(at: at, raw: [.power: state], units: [.power: "W"])
    }

    static func history(_ text: String, file: String) throws -> [Observation] {
        var rows: [(at: Date, state: String)] = []
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() where number > 0 {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3, let at = ISOTime.parse(String(fields[2])) else {
                throw Failure(description: "\(file) line \(number + 1): expected entity_id,state,last_changed, found \(line)")
            }
            rows.append((at, String(fields[1])))
        }
        let statistics = rows.prefix { Int($0.at.timeIntervalSince1970) % 3600 == 0 && $0.at.timeIntervalSince1970.rounded() == $0.at.timeIntervalSince1970 }.count
        let readings = statistics >= 24 ? rows.dropFirst(statistics) : rows[...]
        return readings.map { observation($0.at, $0.state) }
    }

    static func washData(_ data: Data, ids: [String], file: String) throws -> [Observation] {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let body = root["data"] as? [String: Any] else {
            throw Failure(description: "\(file): expected a JSON object with \"data\"")
        }
        let store = body["store_data"] as? [String: Any] ?? body
        guard let cycles = store["past_cycles"] as? [[String: Any]] else {
            throw Failure(description: "\(file): expected data.past_cycles or data.store_data.past_cycles")
        }
        var stored: [[(at: Date, watts: Double)]] = []
        var interval = 30.0
        for id in ids {
            guard let cycle = cycles.first(where: { $0["id"] as? String == id }),
                  let startText = cycle["start_time"] as? String, let start = ISOTime.parse(startText),
                  let points = cycle["power_data"] as? [[Double]] else {
                throw Failure(description: "\(file): expected a stored cycle \(id) with start_time and power_data")
            }
            interval = cycle["sampling_interval"] as? Double ?? interval
            let samples = points.filter { $0.count == 2 }.map { (at: start.addingTimeInterval($0[0]), watts: $0[1]) }
            guard !samples.isEmpty else { throw Failure(description: "\(file): no samples in stored cycle \(id)") }
            stored.append(samples.sorted { $0.at < $1.at })
        }
        stored.sort { $0[0].at < $1[0].at }
        var readings: [Observation] = []
        for (index, samples) in stored.enumerated() {
            let idle = idleLevels(samples)
            if index == 0 { readings += pad(idle, from: samples[0].at.addingTimeInterval(-1800), to: samples[0].at, every: interval) }
            readings += samples.map { observation($0.at, String($0.watts)) }
            let last = samples[samples.count - 1].at
            let next = index + 1 < stored.count ? stored[index + 1][0].at : last.addingTimeInterval(5400 + 1)
            readings += pad(idle, from: last.addingTimeInterval(interval), to: min(next, last.addingTimeInterval(5400 + 1)), every: interval)
        }
        return readings
    }

    /// The plug as the appliance left it: the stored samples after its last draw above 5 W
    /// (a standby that reads 0 and 1 W in turn stays so), else the lowest sample.
    static func idleLevels(_ samples: [(at: Date, watts: Double)]) -> [Double] {
        let tail = Array(samples.reversed().prefix { $0.watts <= 5 }.reversed()).map(\.watts)
        return tail.isEmpty ? [samples.map(\.watts).min() ?? 0] : tail
    }

    /// `idle` in turn, every `every` seconds from `from` until before `to`.
    static func pad(_ idle: [Double], from: Date, to: Date, every: Double) -> [Observation] {
        var readings: [Observation] = []
        var at = from
        while at < to {
            readings.append(observation(at, String(idle[readings.count % idle.count])))
            at = at.addingTimeInterval(every)
        }
        return readings
    }
}
