import FoundationEssentials

/// The JSON bodies of `supernotify.notify` calls and their texts, exactly as
/// docs/PUSHES.md, "Body fields", lays them out (key order included).
enum SupernotifyBody {
    /// Supernotify and HA take bodies up to this size; longer user texts are shortened.
    static let maximumBytes = 4096

    // MARK: Bodies

    /// A `start`, `quiet` or `progress` call showing `view`.
    static func live(kind: CallKind, message: String, view: CycleView, cycle: CycleInfo,
                     settings: ApplianceSettings) -> JSONObject {
        var extra = JSONObject([
            ("mobile_push_notification_tag", .string(NotificationTag.live(applianceID: settings.id))),
            ("live_update", .bool(true)),
            ("notification_icon", .string(icon(cycle: cycle, view: view, settings: settings))),
            ("channel", .string("Appliances")),
            ("importance", .string("high")),
            ("sticky", .bool(true)),
        ])
        addDashboard(to: &extra, settings: settings)
        if let progress = view.progress {
            extra["progress"] = .int(progress)
            extra["progress_max"] = .int(100)
        }
        let finish = view.pause == .running ? view.finishTime : nil
        if let finish {
            extra["chronometer"] = .bool(true)
            extra["when"] = NumberText.int(finish.timeIntervalSince1970, .down).map(JSONValue.int) ?? .null
        }
        if let progress = view.progress, finish == nil {
            extra["critical_text"] = .string("\(progress)%")
        }
        if kind == .quiet {
            extra["silent"] = .bool(true)
            extra["alert_once"] = .bool(true)
        }
        if let color = settings.color { extra["notification_icon_color"] = .string(color) }
        if let relevance = settings.relevance { extra["relevance_score"] = .double(relevance) }
        if settings.persistent { extra["persistent"] = .bool(true) }
        addHighPriority(to: &extra, settings: settings)
        let mobileOnly = kind == .quiet
        return fitted(header(title: settings.name, message: message, mobileOnly: mobileOnly, settings: settings,
                             extra: extra))
    }

    /// The `clear` that ends the Live Activity / Live Update at once.
    /// `quietly` (quiet hours): with an empty `alert`, which the push relay puts in place of
    /// the alert it gives an iOS Live Activity's end (docs/PUSHES.md, "Quiet hours").
    static func clear(outcome: CycleOutcome, settings: ApplianceSettings, quietly: Bool = false) -> JSONObject {
        let title = endTitle(outcome, settings: settings)
        var extra = JSONObject([
            ("mobile_push_notification_tag", .string(NotificationTag.live(applianceID: settings.id))),
            ("mobile_push_clear_notification", .bool(true)),
        ])
        if quietly { extra["alert"] = .object(JSONObject([("title", .string(""))])) }
        return fitted(header(title: title, message: title, mobileOnly: true, settings: settings, extra: extra))
    }

    /// The `clear` that ends a running cycle's Live Activity before the cycle ends (asked
    /// for through the local API, or `live_activity` switched off): titled with the name.
    static func clearNow(settings: ApplianceSettings) -> JSONObject {
        let extra = JSONObject([
            ("mobile_push_notification_tag", .string(NotificationTag.live(applianceID: settings.id))),
            ("mobile_push_clear_notification", .bool(true)),
        ])
        return fitted(header(title: settings.name, message: settings.name, mobileOnly: true, settings: settings, extra: extra))
    }

    /// The `end` notification of a finished cycle: an ordinary alert with a summary.
    static func end(cycle: CycleInfo, at: Date, settings: ApplianceSettings) -> JSONObject {
        var extra = JSONObject([
            ("mobile_push_notification_tag", .string(NotificationTag.end(applianceID: settings.id))),
            ("notification_icon", .string(icon(cycle: cycle, view: nil, settings: settings))),
        ])
        addDashboard(to: &extra, settings: settings)
        if let color = settings.color { extra["notification_icon_color"] = .string(color) }
        addHighPriority(to: &extra, settings: settings)
        var body = header(title: finishedTitle(settings: settings), message: endSummary(cycle: cycle, at: at, settings: settings),
                          mobileOnly: false, settings: settings, extra: extra)
        addUnloadedAction(to: &body, program: cycle.program, settings: settings)
        return fitted(body)
    }

    /// An unload reminder: the end notification's tag (it replaces it), its title, icon,
    /// dashboard, colour and priority, and how long ago the cycle finished.
    static func reminder(program: String?, endedAt: Date, at: Date, settings: ApplianceSettings) -> JSONObject {
        var extra = JSONObject([
            ("mobile_push_notification_tag", .string(NotificationTag.end(applianceID: settings.id))),
            ("notification_icon", .string(settings.icon.flatMap { $0.isEmpty ? nil : $0 }
                ?? ApplianceIcon.guess(programKey: program, name: settings.name))),
        ])
        addDashboard(to: &extra, settings: settings)
        if let color = settings.color { extra["notification_icon_color"] = .string(color) }
        addHighPriority(to: &extra, settings: settings)
        var body = header(title: finishedTitle(settings: settings),
                          message: reminderMessage(program: program, endedAt: endedAt, at: at, settings: settings),
                          mobileOnly: false, settings: settings, extra: extra)
        addUnloadedAction(to: &body, program: program, settings: settings)
        return fitted(body)
    }

    /// The *Unloaded* button, last, on the end notification and the reminders of an
    /// appliance that reminds to unload (`UnloadReminder.interval`).
    private static func addUnloadedAction(to body: inout JSONObject, program: String?, settings: ApplianceSettings) {
        guard UnloadReminder.interval(settings: settings, program: program) != nil else { return }
        body["actions"] = UnloadedAction.actions(settings: settings)
    }

    private static func header(title: String, message: String, mobileOnly: Bool, settings: ApplianceSettings,
                               extra: JSONObject) -> JSONObject {
        var body = JSONObject([
            ("title", .string(title)),
            ("message", .string(message)),
            ("force_resend", .bool(true)),
        ])
        if mobileOnly {
            body["delivery_selection"] = .string("fixed")
            body["delivery"] = .array(settings.mobileDeliveries.map(JSONValue.string))
        }
        if let target = settings.target, !target.isEmpty {
            body["target"] = .array(target.map(JSONValue.string))
        }
        body["extra_data"] = .object(extra)
        return body
    }

    private static func addDashboard(to extra: inout JSONObject, settings: ApplianceSettings) {
        guard let dashboard = settings.dashboard, !dashboard.isEmpty else { return }
        extra["url"] = .string(dashboard)
        extra["clickAction"] = .string(dashboard)
    }

    private static func addHighPriority(to extra: inout JSONObject, settings: ApplianceSettings) {
        guard settings.fcmHighPriority else { return }
        extra["mobile_push_critical_priority"] = .string("high")
        extra["mobile_push_critical_ttl"] = .int(0)
    }

    private static func icon(cycle: CycleInfo, view: CycleView?, settings: ApplianceSettings) -> String {
        if let icon = settings.icon, !icon.isEmpty { return icon }
        return ApplianceIcon.guess(programKey: cycle.program ?? view?.program, name: settings.name)
    }

    // MARK: Texts

    /// "Dishwasher started" or, with the program known, "Dishwasher started: Eco 50°C".
    static func startMessage(program: String?, settings: ApplianceSettings) -> String {
        let texts = settings.texts
        guard let program else { return Texts.render(texts.started, ["name": settings.name]) }
        return Texts.render(texts.startedProgram, ["name": settings.name, "program": ProgramName.readable(program)])
    }

    /// A quiet update's message: paused / action required / error; the temperature (after the
    /// program); the program; the percentage; else "Running".
    static func quietMessage(view: CycleView, settings: ApplianceSettings) -> String {
        let texts = settings.texts
        let name = ["name": settings.name]
        switch view.pause {
        case .paused: return Texts.render(texts.paused, name)
        case .actionRequired: return Texts.render(texts.actionRequired, name)
        case .error: return Texts.render(texts.errorState, name)
        case .running: break
        }
        let running = runningMessage(view: view, settings: settings)
        // The brand's phase (rinse, spin, drying) where it reports one (docs/CYCLES.md, "Brands").
        guard let phase = view.phase else { return running }
        return "\(running) · \(ProgramName.readable(phase))"
    }

    private static func runningMessage(view: CycleView, settings: ApplianceSettings) -> String {
        let program = view.program.map(ProgramName.readable)
        if let temperature = view.temperature {
            let shown = temperatureText(temperature, unit: view.temperatureUnit)
            return program.map { "\($0) · \(shown)" } ?? shown
        }
        if let program { return program }
        if let progress = view.progress { return "\(progress)%" }
        return Texts.render(settings.texts.running, ["name": settings.name])
    }

    /// "40% complete".
    static func percentMessage(_ percent: Int, settings: ApplianceSettings) -> String {
        Texts.render(settings.texts.percentComplete, ["name": settings.name, "percent": String(percent)])
    }

    /// "180°C"; "180.5°F"; whole numbers without decimals.
    static func temperatureText(_ value: Double, unit: String?) -> String {
        let rounded = (value * 10).rounded() / 10
        return NumberText.plain(rounded) + (unit ?? "°C")
    }

    /// "Dishwasher finished", "... aborted", "... failed", "... stopped reporting".
    static func endTitle(_ outcome: CycleOutcome, settings: ApplianceSettings) -> String {
        let texts = settings.texts
        let template = switch outcome {
        case .finished: texts.finished
        case .aborted: texts.aborted
        case .failed: texts.failed
        case .lost: texts.lost
        }
        return Texts.render(template, ["name": settings.name])
    }

    /// The end notification's and the unload reminders' title: "Washer finished", or with a
    /// linked dryer (`LaundryLink`) "Washer finished: move the laundry to the dryer".
    static func finishedTitle(settings: ApplianceSettings) -> String {
        guard let dryer = settings.linkedDryer else { return endTitle(.finished, settings: settings) }
        return Texts.render(settings.texts.finishedToDryer, ["name": settings.name, "dryer": dryer])
    }

    /// "Eco 50°C done in 2 h 14 min"; "Done in 45 min" without a program.
    static func endSummary(cycle: CycleInfo, at: Date, settings: ApplianceSettings) -> String {
        let duration = DurationText.format(seconds: at.timeIntervalSince(cycle.startedAt), texts: settings.texts)
        guard let program = cycle.program else {
            return Texts.render(settings.texts.doneInNoProgram, ["name": settings.name, "duration": duration])
        }
        return Texts.render(settings.texts.doneIn, [
            "name": settings.name, "program": ProgramName.readable(program), "duration": duration,
        ])
    }

    /// "Washer: Cotton finished 30 min ago"; "Washer finished 30 min ago" without a program.
    static func reminderMessage(program: String?, endedAt: Date, at: Date, settings: ApplianceSettings) -> String {
        let minutes = String(NumberText.int(at.timeIntervalSince(endedAt) / 60, .down) ?? 0)
        guard let program else {
            return Texts.render(settings.texts.unloadReminderNoProgram, ["name": settings.name, "minutes": minutes])
        }
        return Texts.render(settings.texts.unloadReminder, [
            "name": settings.name, "program": ProgramName.readable(program), "minutes": minutes,
        ])
    }

    // MARK: Size

    /// The body itself when it fits in `maximumBytes`; otherwise with its message,
    /// then its title, cut short with "…" until it fits.
    static func fitted(_ body: JSONObject) -> JSONObject {
        var body = body
        for key in ["message", "title"] where size(of: body) > maximumBytes {
            guard case .string(let text)? = body[key] else { continue }
            let characters = Array(text)
            // Binary search for the longest prefix that still fits with the ellipsis.
            var low = 0
            var high = characters.count - 1
            var best = 0
            while low <= high {
                let middle = (low + high) / 2
                body[key] = .string(String(characters[..<middle]) + "…")
                if size(of: body) <= maximumBytes {
                    best = middle
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            body[key] = .string(String(characters[..<best]) + "…")
        }
        return body
    }

    private static func size(of body: JSONObject) -> Int { body.compactJSON().utf8.count }
}
