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
        html += summary(cycle, pushes: pushes)
        html += "<h2>Progress and pushes</h2>\n" + progressChart(observations, pushes: pushes, domain: domain, cycle: cycle)
        html += legend()
        html += "<h2>Finish estimate</h2>\n" + estimateChart(observations, domain: domain, cycle: cycle)
        html += "<h2>Pushes</h2>\n" + pushTable(pushes)
        return html
    }

    private func summary(_ cycle: CycleRecord, pushes: [PushRecord]) -> String {
        var figures: [(String, String)] = [
            ("Started", context.dateTime(cycle.startedAt)),
            (cycle.isOpen ? "Running for" : "Ran", TimeText.duration((cycle.endedAt ?? context.now).timeIntervalSince(cycle.startedAt))),
        ]
        // Times on the day the cycle started are shown as clock times.
        let startDay = context.dateTime(cycle.startedAt).prefix(10)
        func time(_ date: Date) -> String {
            context.dateTime(date).prefix(10) == startDay ? context.clock(date) : context.dateTime(date)
        }
        if let finish = cycle.firstPredictedFinish { figures.append(("First estimate", time(finish))) }
        if let end = cycle.endedAt {
            figures.append(("Ended", time(end)))
            if cycle.outcome == .finished, let finish = cycle.firstPredictedFinish {
                figures.append(("Estimate error", TimeText.signedDuration(end.timeIntervalSince(finish))))
            }
        } else if let finish = cycle.lastPredictedFinish {
            figures.append(("Done at", context.moment(finish)))
        }
        let held = pushes.filter { $0.status == .notSent }.count
        figures.append(("Pushes", "\(cycle.pushes)" + (held > 0 ? " + \(held) held back" : "")))
        if let energy = cycle.energyKWh { figures.append(("Energy", PageContext.energy(energy))) }
        if let progress = cycle.maxProgress { figures.append(("Progress reached", "\(progress)%")) }
        let items = figures.map { "<div class=\"figure\"><span>\($0.0)</span><b>\(HTML.escape($0.1))</b></div>" }.joined()
        return "<p>\(PageContext.stateTag(cycle)) <span class=\"muted\">cycle \(cycle.id) · recorded by \(cycle.source.rawValue)</span></p>\n"
            + "<div class=\"figures\">\(items)</div>\n"
    }

    /// The progress as steps over the cycle, the push lane above it.
    private func progressChart(_ observations: [ObservationRecord], pushes: [PushRecord], domain: ClosedRange<Double>,
                               cycle: CycleRecord) -> String {
        let frame = ChartFrame(height: 250, top: 34, xDomain: domain, yDomain: 0...100)
        var svg = frame.open(label: "Progress of cycle \(cycle.id) over time, with \(pushes.count) pushes marked", id: "progress-chart")
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
            let held = push.status == .notSent
            let status = held ? "held back" : push.status.rawValue.replacing("_", with: " ")
            svg += "<g class=\"push-marker kind-\(push.kind.rawValue)\(held ? " held" : "")\" data-push-id=\"\(push.id)\" data-kind=\"\(push.kind.rawValue)\" data-status=\"\(push.status.rawValue)\">"
                + "<title>\(HTML.escape("\(context.clock(push.at)) \(push.kind.rawValue) (\(status)): \(push.reason)"))</title>"
                + "<line x1=\"\(x)\" x2=\"\(x)\" y1=\"24\" y2=\"\(ChartFrame.n(frame.plotBottom))\"/>"
                + "<circle cx=\"\(x)\" cy=\"\(cy)\" r=\"5\"/></g>"
        }
        return svg + "</svg>\n"
    }

    private func legend() -> String {
        let kinds = CallKind.allCases.map { "<span><i class=\"swatch-\($0.rawValue)\"></i>\($0.rawValue)</span>" }.joined()
        return "<div class=\"legend\">\(kinds)<span><i class=\"held\"></i>held back</span></div>\n"
    }

    /// The predicted finish time (as a clock time) at each moment, and the actual end.
    private func estimateChart(_ observations: [ObservationRecord], domain: ClosedRange<Double>, cycle: CycleRecord) -> String {
        var points: [(x: Double, y: Double)] = []
        for observation in observations {
            guard let text = observation.states[Role.finishTime.rawValue], let finish = ISOTime.parse(text) else { continue }
            let value = finish.timeIntervalSince1970
            guard NumberText.isPlausible(value) else { continue }
            if points.last?.y != value || observation.id == observations.last?.id {
                points.append((max(observation.at.timeIntervalSince1970, domain.lowerBound), value))
            }
        }
        guard !points.isEmpty else {
            return "<p class=\"muted\" id=\"estimate-chart\">Home Assistant gave no finish time for this cycle.</p>\n"
        }
        let actual = cycle.endedAt?.timeIntervalSince1970
        let values = points.map(\.y) + [actual].compactMap { $0 }
        let low = (values.min() ?? 0) - 120, high = (values.max() ?? 0) + 120
        if let last = points.last, let until = actual ?? Optional(domain.upperBound), until > last.x {
            points.append((until, last.y))
        }
        let frame = ChartFrame(height: 220, xDomain: domain, yDomain: low...high)
        var svg = frame.open(label: "Predicted finish time of cycle \(cycle.id) over time", id: "estimate-chart")
        svg += frame.yGrid(ChartFrame.timeTicks(low...high, timeZone: context.timeZone, count: 5)) {
            context.clock(Date(timeIntervalSince1970: $0))
        }
        svg += frame.xAxis(ChartFrame.timeTicks(domain, timeZone: context.timeZone)) { context.clock(Date(timeIntervalSince1970: $0)) }
        if let actual {
            let y = ChartFrame.n(frame.y(actual))
            svg += "<line class=\"actual\" x1=\"\(ChartFrame.n(frame.left))\" x2=\"\(ChartFrame.n(frame.width - frame.right))\" y1=\"\(y)\" y2=\"\(y)\"/>"
        }
        svg += "<path class=\"estimate\" d=\"\(frame.path(points, steps: true))\"/>"
        let ended = actual.map { "; dashed: the actual end, \(context.clock(Date(timeIntervalSince1970: $0)))" } ?? ""
        return svg + "</svg>\n<div class=\"legend\"><span>the finish time Home Assistant predicted at each moment\(ended)</span></div>\n"
    }

    private func pushTable(_ pushes: [PushRecord]) -> String {
        guard !pushes.isEmpty else { return "<p class=\"muted\">No push was made or held back for this cycle.</p>\n" }
        var html = """
            <div class="table-wrap"><table id="pushes">
            <thead><tr><th>At</th><th>Kind</th><th>Status</th><th>Why</th><th>Phone shows</th><th class="num">Latency</th></tr></thead>
            <tbody>

            """
        for push in pushes {
            let held = push.status == .notSent
            let status = held ? "held back" : push.status.rawValue + (push.httpStatus.map { " (\($0))" } ?? "")
            let phone = PhoneView(push).map { view in
                view.cleared ? "cleared" : [view.title, view.message].filter { !$0.isEmpty }.joined(separator: " — ")
            } ?? ""
            html += "<tr class=\"push-row\(held ? " held" : "")\"><td>\(context.clock(push.at))</td>"
                + "<td><span class=\"pill kind-\(push.kind.rawValue)\">\(push.kind.rawValue)</span></td>"
                + "<td>\(HTML.escape(status))</td>"
                + "<td class=\"reason\">\(HTML.escape(push.reason))\(push.error.map { "<div class=\"error\">\(HTML.escape($0))</div>" } ?? "")</td>"
                + "<td class=\"reason\">\(HTML.escape(phone))</td>"
                + "<td class=\"num\">\(push.latencyMs.map { TimeText.fixed($0, decimals: 0) + " ms" } ?? "")</td></tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }
}
