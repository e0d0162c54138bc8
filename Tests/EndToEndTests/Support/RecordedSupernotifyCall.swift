import Foundation
import CycleCore


/// One `supernotify.notify` call as the stand-in recorded it.
struct RecordedSupernotifyCall: @unchecked Sendable {
    /// When HA handed it to the stand-in, ISO 8601 UTC with milliseconds.
    let receivedAt: String
    /// The call's data, exactly as it reached HA's service registry.
    let data: [String: Any]
    /// nil, or "invalid" / "error" when the failure switch was on.
    let failure: String?
    /// Whether it reached the phone: not failed, and not suppressed as a duplicate of one
    /// delivered before (Supernotify's duplicate detection; `force_resend` bypasses it).
    let delivered: Bool
    /// The `time_fired` of the `call_service` event HA fired for it (microseconds), what
    /// the benchmark measures to; nil when HA fired none.
    var callFiredAt: String?

    var receivedDate: Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: receivedAt)
    }

    var callFiredDate: Date? { callFiredAt.flatMap(ISOTime.parse) }

    /// `data` as JSON with sorted keys, for exact comparisons.
    var canonicalData: String { canonicalJSON(data) }
}

enum SupernotifyFailure: String, Sendable {
    /// The stand-in raises vol.Invalid: HA answers 400.
    case invalid
    /// The stand-in raises HomeAssistantError: HA answers 500.
    case error
}

/// Any JSON value as text with sorted keys, so two values compare by content.
func canonicalJSON(_ value: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else {
        return "<not JSON: \(value)>"
    }
    return String(decoding: data, as: UTF8.self)
}

struct HomeAssistantTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
