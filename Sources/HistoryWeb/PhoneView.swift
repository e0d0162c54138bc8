import CycleCore
import CycleHistory
import FoundationEssentials

/// What a phone shows after a Supernotify call, read back from the call's stored body
/// (docs/PUSHES.md, "Body fields"): the title and message, the progress bar, the
/// finish time the chronometer counts to, or that the live notification was cleared.
struct PhoneView: Equatable {
    var kind: CallKind
    var at: Date
    var title: String
    var message: String
    var progress: Int?
    var finishesAt: Date?
    /// A `clear`: the Live Activity / Live Update is gone.
    var cleared: Bool
    /// Sent without sound or vibration (`extra_data.silent`).
    var silent: Bool

    private struct Body: Decodable {
        var title: String?
        var message: String?
        var extra_data: Extra?
    }

    private struct Extra: Decodable {
        var progress: Int?
        var when: Double?
        var mobile_push_clear_notification: Bool?
        var silent: Bool?
    }

    /// Nil when the body isn't a Supernotify body cycletrack wrote.
    init?(_ push: CallRecord) {
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(push.body.utf8)) else { return nil }
        kind = push.kind
        at = push.at
        title = body.title ?? ""
        message = body.message ?? ""
        progress = body.extra_data?.progress.map { min(max($0, 0), 100) }
        finishesAt = body.extra_data?.when.flatMap { NumberText.isPlausible($0) ? Date(timeIntervalSince1970: $0) : nil }
        cleared = body.extra_data?.mobile_push_clear_notification ?? false
        silent = body.extra_data?.silent ?? false
    }

    /// What the phone shows, in one line as `cycletrack demo` prints it: "Dishwasher ·
    /// 2 h 10 min left · 42% · counts down to 21:05 · silent", or "cleared".
    func summary(time: (Date) -> String) -> String {
        guard !cleared else { return "cleared" }
        var parts = [title, message].filter { !$0.isEmpty }
        if parts.count == 2, parts[1].contains(parts[0]) { parts.removeFirst() }
        if let progress { parts.append("\(progress)%") }
        if let finishesAt, kind != .end { parts.append("counts down to \(time(finishesAt))") }
        parts.append(silent ? "silent" : "with sound")
        return parts.joined(separator: " · ")
    }

    /// The newest call that reached Home Assistant, of the newest cycle's calls.
    static func latest(of pushes: [CallRecord]) -> PhoneView? {
        pushes.last { $0.status == .sent }.flatMap(PhoneView.init)
    }
}
