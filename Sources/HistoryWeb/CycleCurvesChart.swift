import CycleCore
import CycleHistory
import FoundationEssentials

/// The power and temperature an appliance reported during a cycle, on the timeline's
/// time axis: power (watts) on the left scale, temperature on the right. Nothing is
/// drawn when the appliance reported neither.
struct CycleCurvesChart {
    let context: PageContext

    func render(_ observations: [ObservationRecord], domain: ClosedRange<Double>, cycle: CycleRecord) -> String {
        let power = Self.series(observations, role: .power, from: domain.lowerBound)
        let temperature = Self.series(observations, role: .temperature, from: domain.lowerBound)
        guard power.count > 1 || temperature.count > 1 else { return "" }
        let frame = ChartFrame(height: 200, xDomain: domain, yDomain: 0...1)
        var svg = "<h2>Power and temperature</h2>\n<div class=\"chart-wrap\">"
            + frame.open(label: "Power and temperature of cycle \(cycle.id) over time", id: "curves-chart", wide: true)
        svg += frame.xAxis(ChartFrame.timeTicks(domain, timeZone: context.timeZone)) { context.clock(Date(timeIntervalSince1970: $0)) }
        var legend: [String] = []
        if power.count > 1 {
            let high = max((power.map(\.y).max() ?? 1) * 1.1, 1)
            var scale = frame
            scale.yDomain = 0...high
            svg += scale.yGrid(ChartFrame.ticks(0...high, count: 4)) { NumberText.plain($0) + " W" }
            svg += "<path class=\"power\" id=\"power-curve\" d=\"\(scale.path(power))\"/>"
            legend.append("<span><i class=\"line swatch-power\"></i>power, W (left)</span>")
        }
        if temperature.count > 1 {
            let values = temperature.map(\.y)
            let low = min(values.min() ?? 0, 0), high = max((values.max() ?? 1) * 1.1, low + 1)
            var scale = frame
            scale.yDomain = low...high
            let unit = observations.compactMap { $0.states[Role.temperature.rawValue] }.isEmpty ? "" : "°"
            for tick in ChartFrame.ticks(low...high, count: 4) {
                svg += "<text x=\"\(ChartFrame.n(frame.width - frame.right + 2))\" y=\"\(ChartFrame.n(scale.y(tick)))\" dy=\"4\" text-anchor=\"start\">\(NumberText.plain(tick))\(unit)</text>"
            }
            svg += "<path class=\"temperature\" id=\"temperature-curve\" d=\"\(scale.path(temperature))\"/>"
            legend.append("<span><i class=\"line swatch-temperature\"></i>temperature (right)</span>")
        }
        return svg + "</svg></div>\n<div class=\"legend\">\(legend.joined())</div>\n"
    }

    /// The role's numeric readings over time, from `from` on.
    static func series(_ observations: [ObservationRecord], role: Role, from: Double) -> [(x: Double, y: Double)] {
        observations.compactMap { observation in
            guard let text = observation.states[role.rawValue], let value = Double(text), NumberText.isPlausible(value) else { return nil }
            return (max(observation.at.timeIntervalSince1970, from), value)
        }
    }
}
