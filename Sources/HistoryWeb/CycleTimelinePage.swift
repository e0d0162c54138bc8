import CycleCore
import CycleHistory
import FoundationEssentials
import LocalTime

/// `cycle?id=N`: one cycle over time. A chart of the progress Home Assistant showed,
/// with every Supernotify call marked on it by kind (held-back calls hollow); a chart
/// of the finish time HA predicted against the actual end; and the calls as a table
/// with why each was made.
struct CycleTimelinePage {
    let context: PageContext

    func render(_ store: HistoryStore, cycle: CycleRecord) throws(StoreError) -> String {
        let observations = try store.observations(cycleID: cycle.id)
        let pushes = try store.pushes(cycleID: cycle.id)
        let start = cycle.startedAt.timeIntervalSince1970
        var end = (cycle.endedAt ?? max(context.now, cycle.startedAt)).timeIntervalSince1970
        if cycle.isOpen, let last = observations.last?.at.timeIntervalSince1970 { end = max(end, last) }
        let first = min(start, pushes.first?.at.timeIntervalSince1970 ?? start)
        end = max(end, pushes.last?.at.timeIntervalSince1970 ?? end)
        let domain = first...max(end, first + 60)

        var html = "<h1>\(HTML.escape(context.name(of: cycle.applianceID))) · \(HTML.escape(context.program(cycle.program)))</h1>\n"
        html += summary(cycle, pushes: pushes, lastHeard: observations.last?.at)
        html += "<h2>Progress and pushes</h2>\n" + progressChart(observations, pushes: pushes, domain: domain, cycle: cycle)
        html += legend(pushes)
        // The row before the start (the state the cycle started from) holds what the last
        // cycle left: its finish time and power are not this cycle's.
        let own = observations.filter { $0.cycleID == cycle.id }
        html += "<h2>Finish estimate</h2>\n" + estimateChart(own, pushes: pushes, domain: domain, cycle: cycle)
        html += CycleCurvesChart(context: context).render(own, domain: domain, cycle: cycle)
        html += "<h2>Pushes</h2>\n" + pushTable(pushes, start: cycle.startedAt)
        return html
    }

    private func summary(_ cycle: CycleRecord, pushes: [CallRecord], lastHeard: Date?) -> String {
        var figures: [(String, String)] = [
            ("Started", context.dateTime(cycle.startedAt)),
            (cycle.isOpen ? "Running for" : "Ran", TimeText.duration((cycle.endedAt ?? context.now).timeIntervalSince(cycle.startedAt))),
        ]
        // Times on the day the cycle started are shown as clock times.
        func time(_ date: Date) -> String { self.time(date, sameDayAs: cycle.startedAt) }
        if let finish = cycle.firstPredictedFinish { figures.append(("First estimate (HA)", time(finish))) }
        if let shown = cycle.firstShownFinish, shown != cycle.firstPredictedFinish {
            figures.append(("First shown on the phone", time(shown)))
        }
        if let end = cycle.endedAt {
            figures.append(("Ended", time(end)))
            if cycle.outcome == .finished, let finish = cycle.firstPredictedFinish {
                figures.append(("Estimate error (HA)", TimeText.signedDuration(end.timeIntervalSince(finish))))
            }
            if cycle.outcome == .finished, let shown = cycle.firstShownFinish, shown != cycle.firstPredictedFinish {
                figures.append(("Error as shown", TimeText.signedDuration(end.timeIntervalSince(shown))))
            }
        } else {
            if let finish = cycle.expectedFinish {
                figures.append((cycle.isOverdue(at: context.now) ? "Was due at" : "Done at", context.moment(finish)))
            }
            if let lastHeard { figures.append(("Last heard", context.ago(lastHeard))) }
        }
        figures.append(("Pushes", pushCount(cycle, pushes: pushes)))
        if let energy = cycle.energyKWh { figures.append(("Energy", PageContext.energy(energy))) }
        if cycle.cost != nil { figures.append(("Cost", PageContext.cost(cycle))) }
        if let progress = cycle.maxProgress { figures.append(("Progress reached", "\(progress)%")) }
        let items = figures.map { "<div class=\"figure\"><span>\($0.0)</span><b>\(HTML.escape($0.1))</b></div>" }.joined()
        let overdue = cycle.isOverdue(at: context.now)
            ? "<p class=\"error\" id=\"overdue\">No end was heard: this cycle is past its finish time and was last heard \(lastHeard.map(context.ago) ?? "never"). It stays open until its appliance reports again or it is marked lost.</p>\n"
            : ""
        return "<p>\(context.stateTag(cycle)) <span class=\"muted\">cycle \(cycle.id) · recorded by \(cycle.source.rawValue)</span></p>\n"
            + overdue + "<div class=\"figures\">\(items)</div>\n"
    }

    /// "12", "12 + 2 held back", "17 replayed + 2 held back" for a recorded replay, and
    /// "+ 1 waited", "+ 1 dropped" for notices that waited or were given up.
    private func pushCount(_ cycle: CycleRecord, pushes: [CallRecord]) -> String {
        let count = { (status: PushStatus) in pushes.filter { $0.status == status }.count }
        let made = count(.replayed) > 0 ? "\(cycle.pushes) replayed" : "\(cycle.pushes)"
        let extra = [(count(.notSent), "held back"), (count(.held), "waited"), (count(.dropped), "dropped")]
        return made + extra.filter { $0.0 > 0 }.map { " + \($0.0) \($0.1)" }.joined()
    }

    /// The progress as steps over the cycle, the push lane above it.
    private func progressChart(_ observations: [ObservationRecord], pushes: [CallRecord], domain: ClosedRange<Double>,
                               cycle: CycleRecord) -> String {
        let frame = ChartFrame(height: 250, top: 34, xDomain: domain, yDomain: 0...100)
        var svg = "<div class=\"chart-wrap\">"
            + frame.open(label: "Progress of cycle \(cycle.id) over time, with \(pushes.count) pushes marked", id: "progress-chart", wide: true)
        svg += frame.yGrid([0, 25, 50, 75, 100]) { "\(NumberText.plain($0))%" }
        svg += frame.xAxis(ChartFrame.timeTicks(domain, timeZone: context.timeZone)) { context.clock(Date(timeIntervalSince1970: $0)) }
        var points: [(x: Double, y: Double)] = []
        for observation in observations {
            guard let text = observation.states[Role.progress.rawValue], let value = Double(text), NumberText.isPlausible(value) else { continue }
            let at = max(observation.at.timeIntervalSince1970, domain.lowerBound)
            points.append((at, min(max(value, 0), 100)))
        }
        if let last = points.last {
            let until = cycle.endedAt?.timeIntervalSince1970 ?? domain.upperBound
            if until > last.x { points.append((until, last.y)) }
        }
        if points.count > 1 {
            let line = frame.path(points, steps: true)
            let bottom = ChartFrame.n(frame.plotBottom)
            svg += "<path class=\"area\" d=\"\(line) V\(bottom) H\(ChartFrame.n(frame.x(points[0].x))) Z\"/>"
            svg += "<path class=\"series\" d=\"\(line)\"/>"
        } else if points.isEmpty {
            svg += "<text x=\"\(ChartFrame.n(frame.width / 2))\" y=\"\(ChartFrame.n(frame.top + frame.plotHeight / 2))\" text-anchor=\"middle\">no progress reported</text>"
        }
        svg += "<text x=\"\(ChartFrame.n(frame.left))\" y=\"12\">pushes</text>"
        // Calls close together (a clear and the end) are stacked rather than drawn over each other.
        var previous: (x: Double, row: Int)?
        for push in pushes {
            let position = frame.x(push.at.timeIntervalSince1970)
            let row = previous.map { abs(position - $0.x) < 9 ? $0.row + 1 : 0 } ?? 0
            previous = (position, row)
            let x = ChartFrame.n(position)
            let cy = ChartFrame.n(20 + Double(min(row, 3)) * 11)
            let held = !push.status.isCall
            let status = Self.statusText(push)
            let style = held ? " held" : push.status == .replayed ? " replayed" : ""
            svg += "<g class=\"push-marker kind-\(push.kind.rawValue)\(style)\" data-push-id=\"\(push.id)\" data-kind=\"\(push.kind.rawValue)\" data-status=\"\(push.status.rawValue)\">"
                + "<title>\(HTML.escape("\(context.clock(push.at)) \(push.kind.rawValue) (\(status)): \(push.reason)"))</title>"
                + "<line x1=\"\(x)\" x2=\"\(x)\" y1=\"24\" y2=\"\(ChartFrame.n(frame.plotBottom))\"/>"
                + "<circle cx=\"\(x)\" cy=\"\(cy)\" r=\"5\"/></g>"
        }
        return svg + "</svg></div>\n"
    }

    private func legend(_ pushes: [CallRecord]) -> String {
        let kinds = CallKind.allCases.map { "<span><i class=\"swatch-\($0.rawValue)\"></i>\($0.rawValue)</span>" }.joined()
        let replayed = pushes.contains { $0.status == .replayed } ? "<span><i class=\"replayed\"></i>replayed (never sent)</span>" : ""
        return "<div class=\"legend\">\(kinds)<span><i class=\"held\"></i>held back</span>\(replayed)</div>\n"
    }

    /// `held back`, `replayed`, `sent (200)`.
    static func statusText(_ push: CallRecord) -> String {
        switch push.status {
        case .notSent: "held back"
        case .replayed: "replayed"
        case .held: "held (waiting)"
        case .dropped: "dropped"
        default: push.status.rawValue + (push.httpStatus.map { " (\($0))" } ?? "")
        }
    }

    /// The predicted finish time (as a clock time) at each moment, the finish time the
    /// phone was shown (after the finish-time correction), and the actual end.
    private func estimateChart(_ observations: [ObservationRecord], pushes: [CallRecord], domain: ClosedRange<Double>,
                               cycle: CycleRecord) -> String {
        var points = Self.steps(observations.compactMap { observation in
            observation.states[Role.finishTime.rawValue].flatMap(ISOTime.parse).map { (observation.at.timeIntervalSince1970, $0.timeIntervalSince1970) }
        }, from: domain.lowerBound)
        var shown = Self.steps(pushes.compactMap { push in
            guard push.status.isCall, push.kind != .end, let view = PhoneView(push), !view.cleared, let when = view.finishesAt else { return nil }
            return (push.at.timeIntervalSince1970, when.timeIntervalSince1970)
        }, from: domain.lowerBound)
        guard !points.isEmpty || !shown.isEmpty else {
            return "<p class=\"muted\" id=\"estimate-chart\">Home Assistant gave no finish time for this cycle.</p>\n"
        }
        let actual = cycle.endedAt?.timeIntervalSince1970
        let values = points.map(\.y) + shown.map(\.y) + [actual].compactMap { $0 }
        let low = (values.min() ?? 0) - 120, high = (values.max() ?? 0) + 120
        let until = actual ?? domain.upperBound
        for index in [0, 1] {
            var line = index == 0 ? points : shown
            if let last = line.last, until > last.x { line.append((until, last.y)) }
            if index == 0 { points = line } else { shown = line }
        }
        let frame = ChartFrame(height: 220, xDomain: domain, yDomain: low...high)
        var svg = "<div class=\"chart-wrap\">" + frame.open(label: "Predicted finish time of cycle \(cycle.id) over time", id: "estimate-chart", wide: true)
        svg += frame.yGrid(ChartFrame.timeTicks(low...high, timeZone: context.timeZone, count: 5, atLeast: 2)) {
            context.clock(Date(timeIntervalSince1970: $0))
        }
        svg += frame.xAxis(ChartFrame.timeTicks(domain, timeZone: context.timeZone)) { context.clock(Date(timeIntervalSince1970: $0)) }
        if let actual {
            let y = ChartFrame.n(frame.y(actual))
            svg += "<line class=\"actual\" x1=\"\(ChartFrame.n(frame.left))\" x2=\"\(ChartFrame.n(frame.width - frame.right))\" y1=\"\(y)\" y2=\"\(y)\"/>"
        }
        if !points.isEmpty { svg += "<path class=\"estimate\" d=\"\(frame.path(points, steps: true))\"/>" }
        if !shown.isEmpty { svg += "<path class=\"shown\" id=\"shown-finish\" d=\"\(frame.path(shown, steps: true))\"/>" }
        let ended = actual.map { "<span><i class=\"line swatch-start\"></i>dashed: the actual end, \(context.clock(Date(timeIntervalSince1970: $0)))</span>" } ?? ""
        return svg + "</svg></div>\n<div class=\"legend\"><span><i class=\"line swatch-clear\"></i>the finish time Home Assistant predicted</span>"
            + (shown.isEmpty ? "" : "<span><i class=\"line swatch-progress\"></i>the finish time the phone showed</span>") + ended + "</div>\n"
    }

    /// The changes of a value over time, as (moment, value) from `from` on: a repeat is dropped.
    static func steps(_ readings: [(Double, Double)], from: Double) -> [(x: Double, y: Double)] {
        var points: [(x: Double, y: Double)] = []
        for (at, value) in readings where NumberText.isPlausible(value) && points.last?.y != value {
            points.append((max(at, from), value))
        }
        return points
    }

    /// A clock time on the day `start` is on, else the date and time.
    private func time(_ date: Date, sameDayAs start: Date) -> String {
        context.dateTime(date).prefix(10) == context.dateTime(start).prefix(10) ? context.clock(date) : context.dateTime(date)
    }

    private func pushTable(_ pushes: [CallRecord], start: Date) -> String {
        let time = { (date: Date) in self.time(date, sameDayAs: start) }
        guard !pushes.isEmpty else { return "<p class=\"muted\">No push was made or held back for this cycle.</p>\n" }
        var html = """
            <div class="table-wrap"><table id="pushes" class="cards-on-phone">
            <thead><tr><th>At</th><th>Kind</th><th>Status</th><th>Why</th><th>Phone shows</th><th class="num">Latency</th></tr></thead>
            <tbody>

            """
        for push in pushes {
            let held = !push.status.isCall
            let phone = held ? "nothing: \(Self.statusText(push))" : PhoneView(push).map { $0.summary(time: time) } ?? ""
            html += "<tr class=\"push-row\(held ? " held" : "")\"><td data-label=\"At\">\(context.clock(push.at))</td>"
                + "<td data-label=\"Kind\"><span class=\"pill kind-\(push.kind.rawValue)\">\(push.kind.rawValue)</span></td>"
                + "<td data-label=\"Status\">\(HTML.escape(Self.statusText(push)))</td>"
                + "<td class=\"reason\" data-label=\"Why\">\(HTML.escape(push.reason))\(push.error.map { "<div class=\"error\">\(HTML.escape($0))</div>" } ?? "")</td>"
                + "<td class=\"reason phone-shows\" data-label=\"Phone shows\">\(HTML.escape(phone))</td>"
                + "<td class=\"num\" data-label=\"Latency\">\(push.latencyMs.map { TimeText.fixed($0, decimals: 0) + " ms" } ?? "")</td></tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }
}
