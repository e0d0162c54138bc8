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
///   The chosen stored cycles, in time order, become one timeline, framed by half an hour
///   before and an hour and a half after at the stored cycles' lowest reading (the plug's
///   level when the appliance drew least), every `sampling_interval` seconds.
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
        var samples: [(at: Date, watts: Double)] = []
        var interval = 30.0
        for id in ids {
            guard let cycle = cycles.first(where: { $0["id"] as? String == id }),
                  let startText = cycle["start_time"] as? String, let start = ISOTime.parse(startText),
                  let points = cycle["power_data"] as? [[Double]] else {
                throw Failure(description: "\(file): expected a stored cycle \(id) with start_time and power_data")
            }
            interval = cycle["sampling_interval"] as? Double ?? interval
            samples += points.filter { $0.count == 2 }.map { (start.addingTimeInterval($0[0]), $0[1]) }
        }
        samples.sort { $0.at < $1.at }
        guard let first = samples.first, let last = samples.last,
              let lowest = samples.map(\.watts).min() else { throw Failure(description: "\(file): no samples in \(ids)") }
        let text = String(lowest)
        let before = stride(from: 1800.0, to: 0, by: -interval).map { observation(first.at.addingTimeInterval(-$0), text) }
        let after = stride(from: interval, through: 5400, by: interval).map { observation(last.at.addingTimeInterval($0), text) }
        return before + samples.map { observation($0.at, String($0.watts)) } + after
    }
}
