/// Every user-facing text, with `{placeholder}`s; replaceable from the configuration
/// so a German household reads "Geschirrspüler fertig".
public struct Texts: Sendable, Equatable, Codable {
    public var started = "{name} started"
    public var startedProgram = "{name} started: {program}"
    public var paused = "Paused"
    public var actionRequired = "Action required"
    public var running = "Running"
    public var percentComplete = "{percent}% complete"
    public var finished = "{name} finished"
    /// A washer's end with a dryer in the household (docs/PUSHES.md, "Washer and dryer").
    public var finishedToDryer = "{name} finished: move the laundry to the dryer"
    public var aborted = "{name} aborted"
    public var failed = "{name} failed"
    public var lost = "{name} stopped reporting"
    public var doneIn = "{program} done in {duration}"
    public var doneInNoProgram = "Done in {duration}"
    public var unloadReminder = "{name}: {program} finished {minutes} min ago"
    public var unloadReminderNoProgram = "{name} finished {minutes} min ago"
    /// The *Unloaded* button's title (`UnloadedAction`).
    public var unloaded: String {
        get { unloadedButton ?? "Unloaded" }
        set { unloadedButton = newValue }
    }
    /// nil: the English default, also for texts saved before the button existed.
    private var unloadedButton: String?
    public var hours = "h"
    public var minutes = "min"
    /// The anomaly notes (docs/PUSHES.md, "Anomalies").
    public var actionRequiredBecause = "Action required: {reason}"
    public var doorOpen = "door open"
    public var longerThanUsual = "Running {duration} longer than usual"
    public var progressStuck = "No progress for {duration}"
    /// An error mid-cycle (docs/CYCLES.md, "Errors"): the note, and the quiet message while it lasts.
    public var errorBecause = "Error: {reason}"
    public var errorState = "Error"
    /// A delayed start's wait on the lock screen (docs/PUSHES.md, "Delayed starts").
    public var startsAt = "{name} starts at {time}"
    /// The built-in set these texts start from ("de"), for words no key holds (an error's
    /// reason, docs/PUSHES.md); nil: English, also for texts saved before it was kept.
    public var language: String?

    public init() {}
}

extension Texts {
    /// For each text, by its configuration key, the placeholders it may use
    /// (docs/REFERENCE.md, "Texts"): `{name}` everywhere, the rest where they have a value.
    public static let placeholders: [String: Set<String>] = [
        "started": ["name"],
        "started_program": ["name", "program"],
        "paused": ["name"],
        "action_required": ["name"],
        "running": ["name"],
        "percent_complete": ["name", "percent"],
        "finished": ["name"],
        "finished_to_dryer": ["name", "dryer"],
        "aborted": ["name"],
        "failed": ["name"],
        "lost": ["name"],
        "done_in": ["name", "program", "duration"],
        "done_in_no_program": ["name", "duration"],
        "unload_reminder": ["name", "program", "minutes"],
        "unload_reminder_no_program": ["name", "minutes"],
        "unloaded": ["name"],
        "hours": [],
        "minutes": [],
        "action_required_because": ["name", "reason"],
        "door_open": ["name"],
        "longer_than_usual": ["name", "duration"],
        "progress_stuck": ["name", "duration"],
        "error_because": ["name", "reason"],
        "error": ["name"],
        "starts_at": ["name", "time"],
    ]

    /// Every text with its configuration key, in the configuration's order.
    public var entries: [(key: String, text: String)] {
        [
            ("started", started), ("started_program", startedProgram), ("paused", paused),
            ("action_required", actionRequired), ("running", running), ("percent_complete", percentComplete),
            ("finished", finished), ("finished_to_dryer", finishedToDryer), ("aborted", aborted), ("failed", failed), ("lost", lost),
            ("done_in", doneIn), ("done_in_no_program", doneInNoProgram),
            ("unload_reminder", unloadReminder), ("unload_reminder_no_program", unloadReminderNoProgram),
            ("unloaded", unloaded),
            ("hours", hours), ("minutes", minutes),
            ("action_required_because", actionRequiredBecause), ("door_open", doorOpen),
            ("longer_than_usual", longerThanUsual), ("progress_stuck", progressStuck),
            ("error_because", errorBecause), ("error", errorState),
            ("starts_at", startsAt),
        ]
    }

    /// Problems with the texts, one line each, naming the text's key and the
    /// placeholder it doesn't know; empty when all is well.
    public func validate() -> [String] {
        var problems: [String] = []
        for entry in entries {
            let allowed = Texts.placeholders[entry.key] ?? []
            for name in Texts.placeholderNames(in: entry.text) where !allowed.contains(name) {
                let expected = allowed.isEmpty ? "none" : allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")
                problems.append("texts.\(entry.key): unknown placeholder {\(name)} (expected \(expected))")
            }
        }
        return problems
    }

    /// The `{placeholder}` names used in `text`, in order of appearance.
    static func placeholderNames(in text: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in text {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                names.append(name)
                current = nil
            } else if current != nil {
                current?.append(character)
            }
        }
        return names
    }

    /// `text` with each `{key}` of `values` replaced; other braces are left as written.
    static func render(_ text: String, _ values: [String: String]) -> String {
        var result = ""
        var pending: String?
        for character in text {
            if character == "{" {
                if let open = pending { result += "{" + open }
                pending = ""
            } else if character == "}", let name = pending {
                result += values[name] ?? "{" + name + "}"
                pending = nil
            } else if pending != nil {
                pending?.append(character)
            } else {
                result.append(character)
            }
        }
        if let open = pending { result += "{" + open }
        return result
    }
}
