import LocalTime
import CycleCore
import CycleHistory
import FoundationEssentials
import LocalTime

/// The energy and cost of the cycles per month and per ISO week, per appliance, as
/// `cycletrack stats --by month|week` sums them: the newest periods first.
struct EnergyCostTable {
    let context: PageContext

    static let months = 12
    static let weeks = 8

    struct Key: Hashable { var period: String; var appliance: String }

    struct Sums {
        var cycles = 0
        var energy: Double?
        var cost: Double?
        var currencies: Set<String?> = []
    }

    func render(_ figures: [CycleFigures]) -> String {
        guard figures.contains(where: { $0.energyKWh != nil || $0.cost != nil }) else { return "" }
        var html = "<h2>Energy and cost</h2>\n"
        html += "<h3>Per month</h3>\n" + table("month", "Month", figures, limit: Self.months) { String(context.dateTime($0).prefix(7)) }
        html += "<h3 class=\"spaced\">Per ISO week</h3>\n" + table("week", "Week", figures, limit: Self.weeks) { TimeText.isoWeek($0, timeZone: context.timeZone) }
        return html
    }

    private func table(_ id: String, _ title: String, _ figures: [CycleFigures], limit: Int, period: (Date) -> String) -> String {
        var sums: [Key: Sums] = [:]
        for cycle in figures {
            let key = Key(period: period(cycle.startedAt), appliance: cycle.applianceID ?? "")
            var sum = sums[key, default: Sums()]
            sum.cycles += 1
            if let energy = cycle.energyKWh { sum.energy = (sum.energy ?? 0) + energy }
            if let cost = cycle.cost {
                sum.cost = (sum.cost ?? 0) + cost
                sum.currencies.insert(cycle.currency)
            }
            sums[key] = sum
        }
        let periods = Set(sums.keys.map(\.period)).sorted(by: >).prefix(limit)
        var html = """
            <div class="table-wrap"><table id="energy-by-\(id)" class="cards-on-phone">
            <thead><tr><th>\(title)</th><th>Appliance</th><th class="num">Cycles</th><th class="num">Energy</th><th class="num">Cost</th></tr></thead>
            <tbody>

            """
        for key in sums.keys.filter({ periods.contains($0.period) }).sorted(by: { ($0.period, context.name(of: $1.appliance)) > ($1.period, context.name(of: $0.appliance)) }) {
            guard let sum = sums[key] else { continue }
            let currency = sum.currencies.count == 1 ? sum.currencies.first ?? nil : nil
            html += "<tr class=\"energy-row\"><td data-label=\"\(title)\">\(key.period)</td>"
                + "<td data-label=\"Appliance\">\(HTML.escape(context.name(of: key.appliance)))</td>"
                + "<td class=\"num\" data-label=\"Cycles\">\(sum.cycles)</td>"
                + "<td class=\"num\" data-label=\"Energy\">\(sum.energy.map(PageContext.energy) ?? "")</td>"
                + "<td class=\"num\" data-label=\"Cost\">\(sum.cost.map { PageContext.money($0, currency: currency) } ?? "")</td></tr>\n"
        }
        return html + "</tbody></table></div>\n"
    }
}
