import CycleCore
import CycleHistory
import FoundationEssentials
import LocalTime

/// `programs`: per program, what `cycletrack stats --by program` says (duration median
/// and p90, the first finish estimate's error, pushes per cycle, energy), with two small
/// charts each: the durations over time, and how the estimate errors are spread.
struct ProgramStatsPage {
    let context: PageContext
    let query: PageQuery

    func appliance() throws(PageError) -> String? { try query.text("appliance") }

    func render(_ store: HistoryStore, appliance: String?) throws(StoreError) -> String {
        // A program is an appliance's: a washer's and a dryer's "Cotton" are two rows.
        struct Group: Hashable { var appliance: String; var program: String? }
        var groups: [Group: [CycleFigures]] = [:]
        var all: [CycleFigures] = []
        try store.forEachCycleFigures(matching: CycleFilter(applianceID: appliance), by: .program) { figures in
            groups[Group(appliance: figures.applianceID ?? "", program: figures.key), default: []].append(figures)
            all.append(figures)
        }
        let programs = groups.map { group, figures in
            var accumulator = CycleStatistics.Accumulator()
            for cycle in figures { accumulator.add(cycle) }
            return (key: group.program, appliance: group.appliance, figures: figures.sorted { $0.startedAt < $1.startedAt },
                    statistics: CycleStatistics(accumulator))
        }.sorted { ($0.statistics.cycles, $1.key ?? "", $1.appliance) > ($1.statistics.cycles, $0.key ?? "", $0.appliance) }
        let spansYears = Set(all.map { context.dateTime($0.startedAt).prefix(4) }).count > 1

        var html = "<h1>Programs</h1>\n" + form(appliance)
        guard !programs.isEmpty else { return html + "<p class=\"muted\" id=\"no-programs\">No cycle matches.</p>" }
        let anchorQuery = appliance.map { "?appliance=" + HTML.queryValue($0) } ?? ""
        html += """
            <div class="table-wrap"><table id="programs" class="cards-on-phone">
            <thead><tr><th>Program</th><th>Appliance</th><th class="num">Cycles</th><th class="num">Finished</th><th class="num">Median</th>\
            <th class="num">p90</th><th class="num">Estimate error</th><th class="num">Pushes</th><th class="num">Energy</th>\
            <th class="num">Cost</th></tr></thead>
            <tbody>

            """
        for (index, program) in programs.enumerated() {
            let stats = program.statistics
            html += "<tr class=\"program-row\"><td data-label=\"Program\"><a href=\"programs\(anchorQuery)#program-\(index + 1)\">\(HTML.escape(context.program(program.key)))</a></td>"
                + "<td data-label=\"Appliance\" class=\"appliance\">\(HTML.escape(context.name(of: program.appliance)))</td>"
                + "<td class=\"num\" data-label=\"Cycles\">\(stats.cycles)</td><td class=\"num\" data-label=\"Finished\">\(stats.finished)</td>"
                + "<td class=\"num\" data-label=\"Median\">\(stats.medianDuration.map(TimeText.duration) ?? "")</td>"
                + "<td class=\"num\" data-label=\"p90\">\(stats.p90Duration.map(TimeText.duration) ?? "")</td>"
                + "<td class=\"num\" data-label=\"Estimate error\">\(stats.medianEstimateError.map(TimeText.signedDuration) ?? "")</td>"
                + "<td class=\"num\" data-label=\"Pushes\">\(stats.medianPushes.map(Self.pushes) ?? "")</td>"
                + "<td class=\"num\" data-label=\"Energy\">\(stats.medianEnergy.map(PageContext.energy) ?? "")</td>"
                + "<td class=\"num\" data-label=\"Cost\">\(stats.medianCost.map { PageContext.money($0, currency: stats.currency) } ?? "")</td></tr>\n"
        }
        html += "</tbody></table></div>\n"
        html += EnergyCostTable(context: context).render(all)
        for (index, program) in programs.enumerated() {
            html += card(index + 1, key: program.key, appliance: program.appliance, figures: program.figures,
                         stats: program.statistics, spansYears: spansYears)
        }
        return html
    }

    private static func pushes(_ value: Double) -> String {
        value == value.rounded() ? NumberText.plain(value) : TimeText.fixed(value, decimals: 1)
    }

    private func form(_ appliance: String?) -> String {
        let appliances = context.names.keys.sorted { context.name(of: $0) < context.name(of: $1) }
        var html = "<form class=\"filters\" action=\"programs\" method=\"get\"><label>Appliance<select name=\"appliance\">"
        html += "<option value=\"\"\(appliance == nil ? " selected" : "")>any</option>"
        for id in appliances {
            html += "<option value=\"\(HTML.escape(id))\"\(appliance == id ? " selected" : "")>\(HTML.escape(context.name(of: id)))</option>"
        }
        return html + "</select></label><button type=\"submit\">Show</button></form>\n"
    }

    private func card(_ number: Int, key: String?, appliance: String, figures: [CycleFigures], stats: CycleStatistics,
                      spansYears: Bool) -> String {
        var items: [(String, String)] = [("Cycles", "\(stats.cycles) (\(stats.finished) finished)")]
        if let median = stats.medianDuration { items.append(("Median duration", TimeText.duration(median))) }
        if let p90 = stats.p90Duration { items.append(("p90 duration", TimeText.duration(p90))) }
        if let error = stats.medianEstimateError { items.append(("Estimate error (median)", TimeText.signedDuration(error))) }
        if let pushes = stats.medianPushes {
            items.append(("Pushes per cycle", Self.pushes(pushes) + (stats.maxPushes.map { ", at most \($0)" } ?? "")))
        }
        if let energy = stats.medianEnergy {
            items.append(("Energy per cycle", PageContext.energy(energy) + (stats.totalEnergy.map { ", \(PageContext.energy($0)) in all" } ?? "")))
        }
        if let cost = stats.medianCost {
            items.append(("Cost per cycle", PageContext.money(cost, currency: stats.currency)
                + (stats.totalCost.map { ", \(PageContext.money($0, currency: stats.currency)) in all" } ?? "")))
        }
        let boxes = items.map { "<div class=\"figure\"><span>\($0.0)</span><b>\(HTML.escape($0.1))</b></div>" }.joined()
        return """
            <section class="card program" id="program-\(number)">
            <h2>\(HTML.escape(context.program(key))) <span class="muted">· \(HTML.escape(context.name(of: appliance)))</span></h2>
            <div class="figures">\(boxes)</div>
            <div class="charts"><div><h3>Durations over time</h3>\(durationChart(figures, stats: stats, spansYears: spansYears))</div>\
            <div><h3>Finish estimate error</h3>\(errorChart(figures))</div></div>
            </section>

            """
    }

    /// Each ended cycle's duration (minutes) at its start date, with the median and p90.
    private func durationChart(_ figures: [CycleFigures], stats: CycleStatistics, spansYears: Bool) -> String {
        let points = figures.compactMap { cycle in cycle.duration.map { (x: cycle.startedAt.timeIntervalSince1970, y: $0 / 60) } }
        guard let firstX = points.first?.x, let lastX = points.last?.x else {
            return "<p class=\"muted\">No ended cycle yet.</p>"
        }
        let maxY = (points.map(\.y).max() ?? 1) * 1.1
        let pad = max((lastX - firstX) * 0.05, 86_400)
        let frame = ChartFrame(width: 320, height: 180, xDomain: (firstX - pad)...(lastX + pad), yDomain: 0...max(maxY, 1))
        var svg = frame.open(label: "Durations of \(points.count) cycles over time")
        svg += frame.yGrid(ChartFrame.ticks(frame.yDomain, count: 4)) { "\(NumberText.plain($0)) min" }
        // A history spanning years says which year: 2025-11-02, else 11-02.
        let days = ChartFrame.dayTicks(frame.xDomain, timeZone: context.timeZone, count: spansYears ? 2 : 3)
        svg += frame.xAxis(days) { String(context.dateTime(Date(timeIntervalSince1970: $0)).prefix(10).suffix(spansYears ? 10 : 5)) }
        for (line, value) in [("median", stats.medianDuration), ("p90", stats.p90Duration)] {
            guard let value else { continue }
            let y = ChartFrame.n(frame.y(value / 60))
            svg += "<line class=\"\(line)\" x1=\"\(ChartFrame.n(frame.left))\" x2=\"\(ChartFrame.n(frame.width - frame.right))\" y1=\"\(y)\" y2=\"\(y)\"><title>\(line) \(TimeText.duration(value))</title></line>"
        }
        for point in points {
            svg += "<circle class=\"dot\" cx=\"\(ChartFrame.n(frame.x(point.x)))\" cy=\"\(ChartFrame.n(frame.y(point.y)))\" r=\"3.5\">"
                + "<title>\(context.dateTime(Date(timeIntervalSince1970: point.x))): \(TimeText.duration(point.y * 60))</title></circle>"
        }
        return svg + "</svg><div class=\"legend\"><span>dashed: median (green), p90 (orange)</span></div>"
    }

    /// How many finished cycles ended how far from their first estimate (minutes; right
    /// of zero: ran over).
    private func errorChart(_ figures: [CycleFigures]) -> String {
        let errors = figures.compactMap(\.estimateError).map { $0 / 60 }
        guard let low = errors.min(), let high = errors.max() else {
            return "<p class=\"muted\">No finished cycle with an estimate yet.</p>"
        }
        let steps: [Double] = [1, 2, 5, 10, 15, 30, 60, 120]
        let width = steps.first { (high - low) / $0 <= 10 } ?? 240
        let first = (min(low, 0) / width).rounded(.down) * width
        let last = (max(high, 0) / width).rounded(.down) * width + width
        let binCount = max(NumberText.int((last - first) / width, .toNearestOrAwayFromZero) ?? 1, 1)
        var counts = Array(repeating: 0, count: binCount)
        for error in errors {
            let index = NumberText.int((error - first) / width, .down) ?? 0
            counts[min(max(index, 0), binCount - 1)] += 1
        }
        let frame = ChartFrame(width: 320, height: 180, xDomain: first...last, yDomain: 0...Double(max(counts.max() ?? 1, 1)))
        var svg = frame.open(label: "Finish estimate errors of \(errors.count) cycles, in \(NumberText.plain(width))-minute bins")
        svg += frame.yGrid(ChartFrame.ticks(frame.yDomain, count: 3).filter { $0 == $0.rounded() }) { NumberText.plain($0) }
        svg += frame.xAxis(ChartFrame.ticks(frame.xDomain, count: 4)) { ($0 > 0 ? "+" : "") + NumberText.plain($0) + " min" }
        for (index, count) in counts.enumerated() where count > 0 {
            let from = first + Double(index) * width
            let x = frame.x(from) + 1, right = frame.x(from + width) - 1
            svg += "<rect class=\"bar-rect\" x=\"\(ChartFrame.n(x))\" y=\"\(ChartFrame.n(frame.y(Double(count))))\" width=\"\(ChartFrame.n(max(right - x, 1)))\" height=\"\(ChartFrame.n(frame.plotBottom - frame.y(Double(count))))\">"
                + "<title>\(count) cycle\(count == 1 ? "" : "s") from \(NumberText.plain(from)) to \(NumberText.plain(from + width)) min</title></rect>"
        }
        let zero = ChartFrame.n(frame.x(0))
        svg += "<line class=\"zero\" x1=\"\(zero)\" x2=\"\(zero)\" y1=\"\(ChartFrame.n(frame.top))\" y2=\"\(ChartFrame.n(frame.plotBottom))\"/>"
        return svg + "</svg><div class=\"legend\"><span>minutes after (+) or before (−) the first estimate</span></div>"
    }
}
