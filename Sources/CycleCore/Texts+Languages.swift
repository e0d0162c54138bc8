/// The built-in text sets (docs/CONFIGURATION.md, "Languages"): English, the default, and
/// German, for the Home Connect and Miele households that asked for it. A person's
/// `language` picks one; their own `texts` go over it key by key.
extension Texts {
    /// The languages with a built-in set, by code.
    public static let languages = ["en", "de"]

    /// The built-in set for `code`; nil for a language without one.
    public static func builtIn(_ code: String) -> Texts? {
        switch code {
        case "en": Texts()
        case "de": german
        default: nil
        }
    }

    /// Every text in German.
    public static let german: Texts = {
        var texts = Texts()
        texts.language = "de"
        texts.started = "{name} gestartet"
        texts.startedProgram = "{name} gestartet: {program}"
        texts.paused = "Pausiert"
        texts.actionRequired = "Aktion erforderlich"
        texts.running = "Läuft"
        texts.percentComplete = "{percent} % fertig"
        texts.finished = "{name} fertig"
        texts.finishedToDryer = "{name} fertig: Wäsche in den Trockner"
        texts.aborted = "{name} abgebrochen"
        texts.failed = "{name}: Fehler"
        texts.lost = "{name} meldet sich nicht mehr"
        texts.doneIn = "{program} fertig nach {duration}"
        texts.doneInNoProgram = "Fertig nach {duration}"
        texts.unloadReminder = "{name}: {program} seit {minutes} min fertig"
        texts.unloadReminderNoProgram = "{name} seit {minutes} min fertig"
        texts.unloaded = "Ausgeräumt"
        texts.hours = "Std."
        texts.minutes = "Min."
        texts.actionRequiredBecause = "Aktion erforderlich: {reason}"
        texts.doorOpen = "Tür offen"
        texts.longerThanUsual = "Läuft {duration} länger als üblich"
        texts.progressStuck = "Seit {duration} kein Fortschritt"
        texts.errorBecause = "Fehler: {reason}"
        texts.errorState = "Fehler"
        texts.startsAt = "{name} startet um {time}"
        return texts
    }()

    /// Each text's property by its configuration key.
    public static var keyPaths: [String: WritableKeyPath<Texts, String>] {
        [
            "started": \.started, "started_program": \.startedProgram, "paused": \.paused,
            "action_required": \.actionRequired, "running": \.running, "percent_complete": \.percentComplete,
            "finished": \.finished, "finished_to_dryer": \.finishedToDryer, "aborted": \.aborted, "failed": \.failed, "lost": \.lost,
            "done_in": \.doneIn, "done_in_no_program": \.doneInNoProgram, "unload_reminder": \.unloadReminder,
            "unload_reminder_no_program": \.unloadReminderNoProgram, "unloaded": \.unloaded,
            "hours": \.hours, "minutes": \.minutes,
            "action_required_because": \.actionRequiredBecause, "door_open": \.doorOpen,
            "longer_than_usual": \.longerThanUsual, "progress_stuck": \.progressStuck,
            "error_because": \.errorBecause, "error": \.errorState,
            "starts_at": \.startsAt,
        ]
    }

    /// These texts with each key of `values` (configuration keys) replaced.
    public func replacing(_ values: [String: String]) -> Texts {
        var texts = self
        for (key, text) in values {
            if let keyPath = Texts.keyPaths[key] { texts[keyPath: keyPath] = text }
        }
        return texts
    }
}
