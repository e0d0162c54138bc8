import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials

/// The one JSON line per call that `replay --format jsonl` prints and `run` logs at
/// debug level: `{"at": "<ISO 8601 UTC>", "kind": "...", "body": {...}}`, with the
/// body exactly as recorded and sent.
public enum CallLine {
    public static func jsonl(at: Date, kind: CallKind, body: String) -> String {
        "{\"at\":\"\(ISOTime.format(at))\",\"kind\":\"\(kind.rawValue)\",\"body\":\(body)}"
    }

    public static func jsonl(_ call: SupernotifyCall) -> String {
        jsonl(at: call.at, kind: call.kind, body: call.bodyJSON())
    }
}
