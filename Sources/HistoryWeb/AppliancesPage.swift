import CycleCore
import CycleHistory
import FoundationEssentials
import LocalTime

/// `./`: each appliance now, with what its phones show: the running cycle's progress
/// bar and finish time, or the last cycle and how it ended.
struct AppliancesPage {
    let context: PageContext

    /// In the page while a cycle runs: the page then reloads itself every `refreshSeconds`.
    static let runningMark = "data-cycle-running=\"1\""
    static let refreshSeconds = 30

    func render(_ store: HistoryStore) throws(StoreError) -> String {
        let appliances = context.names.keys.sorted { (context.name(of: $0), $0) < (context.name(of: $1), $1) }
        guard !appliances.isEmpty else {
            return "<h1>Appliances</h1><p class=\"muted\">No appliance has been tracked yet.</p>"
        }
        var cards: [String] = []
        var running = false
        for id in appliances {
            let newest = try store.cycles(matching: CycleFilter(applianceID: id, limit: 2))
            let observation = try store.lastObservation(applianceID: id)
            let pushes = try newest.first.map { cycle throws(StoreError) in try store.pushes(cycleID: cycle.id) } ?? []
            if newest.first?.isOpen == true { running = true }
            cards.append(card(id: id, cycles: newest, observation: observation, phone: PhoneView.latest(of: pushes)))
        }
        let live = running
            ? "<p class=\"muted\" id=\"live\" \(Self.runningMark)>A cycle is running: this page reloads every \(Self.refreshSeconds) s.</p>\n"
            : ""
        return "<h1>Appliances</h1>\n" + live + "<div class=\"cards\">\n" + cards.joined(separator: "\n") + "\n</div>"
    }

    private func card(id: String, cycles: [CycleRecord], observation: ObservationRecord?, phone: PhoneView?) -> String {
        let name = HTML.escape(context.name(of: id))
        let open = cycles.first.flatMap { $0.isOpen ? $0 : nil }
        let lastEnded = cycles.first { !$0.isOpen }
        var html = "<section class=\"card appliance\" id=\"appliance-\(HTML.escape(id))\">"
        if let open {
            let progress = observedProgress(observation, cycle: open) ?? phone?.progress
            // The cycle's state, not HA's raw value ("run", "inactive"), which a stale
            // reading can make contradict the card.
            html += "<header><h3>\(name)</h3>\(context.stateTag(open))</header>"
            html += "<div>\(HTML.escape(context.program(open.program)))</div>"
            if let progress {
                html += "<div class=\"bar\" role=\"progressbar\" aria-valuenow=\"\(progress)\" aria-valuemin=\"0\" aria-valuemax=\"100\">"
                    + "<span style=\"width:\(progress)%\"></span></div>"
            }
            html += "<dl>"
            if let progress { html += "<dt>Progress</dt><dd>\(progress)%</dd>" }
            // The finish the phone counts down to (corrected), and HA's when it differs.
            let reported = observation.flatMap { $0.states[Role.finishTime.rawValue] }.flatMap(ISOTime.parse) ?? open.lastPredictedFinish
            let shown = phone.flatMap { $0.cleared ? nil : $0.finishesAt } ?? open.lastShownFinish ?? reported
            if let shown {
                html += "<dt>\(open.isOverdue(at: context.now) ? "Was due" : "Done at")</dt><dd id=\"done-at-\(HTML.escape(id))\">\(context.moment(shown))</dd>"
            }
            if let reported, let shown, context.moment(reported) != context.moment(shown) {
                html += "<dt>HA says</dt><dd>\(context.moment(reported))</dd>"
            }
            html += "<dt>Started</dt><dd>\(context.moment(open.startedAt))</dd>"
            if let heard = observation?.at { html += "<dt>Last heard</dt><dd class=\"last-heard\">\(context.ago(heard))</dd>" }
            html += "<dt>Pushes</dt><dd>\(open.pushes)</dd>"
            html += "</dl>"
            html += "<p><a href=\"cycle?id=\(open.id)\">Timeline of this cycle</a></p>"
        } else {
            html += "<header><h3>\(name)</h3><span class=\"state\">idle</span></header>"
            if let lastEnded {
                html += "<dl><dt>Last cycle</dt><dd>\(HTML.escape(context.program(lastEnded.program)))</dd>"
                html += "<dt>Ended</dt><dd>\(context.stateTag(lastEnded)) \(lastEnded.endedAt.map(context.moment) ?? "")</dd>"
                if let duration = lastEnded.duration { html += "<dt>Ran</dt><dd>\(TimeText.duration(duration))</dd>" }
                if let energy = lastEnded.energyKWh { html += "<dt>Energy</dt><dd>\(PageContext.energy(energy))</dd>" }
                if lastEnded.cost != nil { html += "<dt>Cost</dt><dd>\(PageContext.cost(lastEnded))</dd>" }
                html += "</dl><p><a href=\"cycle?id=\(lastEnded.id)\">Timeline of that cycle</a></p>"
            } else {
                html += "<p class=\"muted\">No cycle recorded yet.</p>"
            }
        }
        html += phoneBox(phone, cycleOpen: open != nil)
        return html + "</section>"
    }

    /// The progress HA shows now, when the observation belongs to the open cycle.
    private func observedProgress(_ observation: ObservationRecord?, cycle: CycleRecord) -> Int? {
        guard let observation, observation.cycleID == cycle.id,
              let text = observation.states[Role.progress.rawValue], let value = Double(text) else { return cycle.maxProgress }
        return NumberText.int(min(max(value, 0), 100), .down)
    }

    private func phoneBox(_ phone: PhoneView?, cycleOpen: Bool) -> String {
        guard let phone else {
            return "<div class=\"phone\"><span class=\"label\">On the phone</span><div class=\"muted\">nothing from cycletrack</div></div>"
        }
        if phone.cleared {
            return "<div class=\"phone\"><span class=\"label\">On the phone</span><div class=\"muted\">live notification cleared at \(context.moment(phone.at))</div></div>"
        }
        var html = "<div class=\"phone\"><span class=\"label\">On the phone · \(HTML.escape(phone.kind.rawValue)) at \(context.moment(phone.at))</span>"
        html += "<b>\(HTML.escape(phone.title))</b><div>\(HTML.escape(phone.message))</div>"
        if let progress = phone.progress, phone.kind != .end {
            html += "<div class=\"bar\"><span style=\"width:\(progress)%\"></span></div>"
        }
        if let finish = phone.finishesAt, phone.kind != .end {
            html += "<div class=\"muted\">counts down to \(context.moment(finish))</div>"
        }
        html += "<div class=\"muted\">\(phone.silent ? "silent" : "with sound")</div>"
        return html + "</div>"
    }
}
