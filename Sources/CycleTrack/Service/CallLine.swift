import CycleCore

/// The one JSON line per call that `replay --format jsonl` prints and `run` logs at
/// debug level: `{"at": "<ISO 8601 UTC>", "kind": "...", "body": {...}}`.
public enum CallLine {
    public static func jsonl(_ call: SupernotifyCall) -> String {
        "{\"at\":\"\(ISOTime.format(call.at))\",\"kind\":\"\(call.kind.rawValue)\",\"body\":\(call.bodyJSON())}"
    }
}
