import CycleCore
import FoundationEssentials

/// Follows the `supernotify_calls.jsonl` the Supernotify stand-in in HA appends to, as it
/// grows: each read takes only the lines written since the last, so waiting on it
/// costs a `read(2)` that finds nothing (the benchmark must not load the two cores it
/// measures on).
///
/// Each call carries HA's own times: `call_fired_at`, the `time_fired` of the
/// `call_service` event HA fired for it (microseconds; HA fires it as it starts the
/// call, before the action's handler runs), and `received_at`, when the handler ran
/// (milliseconds).
final class SupernotifyCallLog {
    struct Call {
        /// The `call_service` event's `time_fired`; `received_at` where the line has none.
        var firedAt: Date
        var line: String
    }

    private let file: AppendedLines
    private(set) var calls: [Call] = []

    init(path: String) { file = AppendedLines(path: path) }

    /// Takes the calls appended since the last read.
    func read() {
        file.read { line in if let call = Self.call(line) { calls.append(call) } }
    }

    static func call(_ line: String) -> Call? {
        struct Record: Decodable {
            var received_at: String
            var call_fired_at: String?
        }
        guard let record = try? JSONDecoder().decode(Record.self, from: Data(line.utf8)),
              let at = ISOTime.parse(record.call_fired_at ?? record.received_at) else { return nil }
        return Call(firedAt: at, line: line)
    }
}
