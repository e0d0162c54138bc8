import CycleHistory
import CycleCore
import FoundationEssentials
import LocalTime

/// The plotting area of one SVG chart: its size, margins and the value ranges on each
/// axis, turning values into coordinates. Everything is drawn in a fixed `viewBox`
/// that the page scales to its width.
struct ChartFrame {
    var width: Double = 640
    var height: Double = 220
    var left: Double = 56
    var right: Double = 34
    var top: Double = 14
    var bottom: Double = 28
    var xDomain: ClosedRange<Double>
    var yDomain: ClosedRange<Double>

    init(width: Double = 640, height: Double = 220, top: Double = 14, xDomain: ClosedRange<Double>, yDomain: ClosedRange<Double>) {
        self.width = width
        self.height = height
        self.top = top
        // A range of one value gets some width, so nothing divides by zero.
        self.xDomain = xDomain.lowerBound < xDomain.upperBound ? xDomain : (xDomain.lowerBound - 1)...(xDomain.upperBound + 1)
        self.yDomain = yDomain.lowerBound < yDomain.upperBound ? yDomain : (yDomain.lowerBound - 1)...(yDomain.upperBound + 1)
    }

    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }
    var plotBottom: Double { top + plotHeight }

    func x(_ value: Double) -> Double {
        left + (value - xDomain.lowerBound) / (xDomain.upperBound - xDomain.lowerBound) * plotWidth
    }

    func y(_ value: Double) -> Double {
        top + plotHeight - (value - yDomain.lowerBound) / (yDomain.upperBound - yDomain.lowerBound) * plotHeight
    }

    /// The `<svg>` start tag, labelled for screen readers. A `wide` chart keeps a width
    /// its text stays readable at on a phone, scrolling sideways in its `chart-wrap`.
    func open(label: String, id: String? = nil, wide: Bool = false) -> String {
        let idAttribute = id.map { " id=\"\(HTML.escape($0))\"" } ?? ""
        return "<svg class=\"chart\(wide ? " wide" : "")\"\(idAttribute) viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" role=\"img\" aria-label=\"\(HTML.escape(label))\">"
    }

    /// Horizontal grid lines with their labels on the left.
    func yGrid(_ ticks: [Double], label: (Double) -> String) -> String {
        ticks.map { tick in
            let position = Self.n(y(tick))
            return "<line class=\"grid\" x1=\"\(Self.n(left))\" x2=\"\(Self.n(width - right))\" y1=\"\(position)\" y2=\"\(position)\"/>"
                + "<text x=\"\(Self.n(left - 6))\" y=\"\(position)\" dy=\"4\" text-anchor=\"end\">\(HTML.escape(label(tick)))</text>"
        }.joined()
    }

    /// Labels under the plot, with a short tick each, and the axis line.
    func xAxis(_ ticks: [Double], label: (Double) -> String) -> String {
        let bottomLine = Self.n(plotBottom)
        var svg = "<line class=\"axis\" x1=\"\(Self.n(left))\" x2=\"\(Self.n(width - right))\" y1=\"\(bottomLine)\" y2=\"\(bottomLine)\"/>"
        for tick in ticks {
            let position = Self.n(x(tick))
            svg += "<line class=\"axis\" x1=\"\(position)\" x2=\"\(position)\" y1=\"\(bottomLine)\" y2=\"\(Self.n(plotBottom + 4))\"/>"
            svg += "<text x=\"\(position)\" y=\"\(Self.n(plotBottom + 17))\" text-anchor=\"middle\">\(HTML.escape(label(tick)))</text>"
        }
        return svg
    }

    /// `M x y L x y ...` through the points, or as steps (each value holds until the next).
    func path(_ points: [(x: Double, y: Double)], steps: Bool = false) -> String {
        var commands: [String] = []
        for (index, point) in points.enumerated() {
            if index == 0 {
                commands.append("M\(Self.n(x(point.x))) \(Self.n(y(point.y)))")
            } else {
                if steps { commands.append("H\(Self.n(x(point.x)))") }
                commands.append("L\(Self.n(x(point.x))) \(Self.n(y(point.y)))")
            }
        }
        return commands.joined(separator: " ")
    }

    /// A coordinate with one decimal: enough for a 640-wide drawing, and short.
    static func n(_ value: Double) -> String { NumberText.fixed(value, decimals: 1) }

    /// About `count` round values (1, 2 or 5 times a power of ten apart) covering `domain`.
    static func ticks(_ domain: ClosedRange<Double>, count: Int = 5) -> [Double] {
        let span = domain.upperBound - domain.lowerBound
        guard span > 0, span.isFinite else { return [domain.lowerBound] }
        let rough = span / Double(max(count, 1))
        var power = 1.0
        while power * 10 <= rough { power *= 10 }
        while power > rough { power /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? power * 10
        var tick = (domain.lowerBound / step).rounded(.up) * step
        var ticks: [Double] = []
        while tick <= domain.upperBound + step * 1e-9, ticks.count < 50 {
            ticks.append(abs(tick) < step * 1e-9 ? 0 : tick)
            tick += step
        }
        return ticks
    }

    /// Round clock times (every 5, 10, 15, 30 minutes, or 1, 2, 3, 6, 12 hours, in local
    /// time) covering `domain` (Unix seconds), at most about `count` of them.
    /// A range too short for two round times gets finer ones (every 1 or 2 minutes), so
    /// that at least `atLeast` labels say what the axis means.
    static func timeTicks(_ domain: ClosedRange<Double>, timeZone: LocalTimeZone, count: Int = 7, atLeast: Int = 1) -> [Double] {
        let span = domain.upperBound - domain.lowerBound
        let steps: [Double] = [5, 10, 15, 30, 60, 120, 180, 360, 720, 1_440].map { $0 * 60 }
        var step = steps.first { span / $0 <= Double(count) } ?? 86_400
        if span / step < Double(atLeast) + 0.5, let finer = [60.0, 120, 300].last(where: { span / $0 >= Double(atLeast) + 0.5 }) {
            step = finer
        }
        let start = Date(timeIntervalSince1970: domain.lowerBound)
        let offset = Double(timeZone.timeZone(for: start).secondsFromGMT(for: start))
        var tick = ((domain.lowerBound + offset) / step).rounded(.up) * step - offset
        var ticks: [Double] = []
        while tick <= domain.upperBound, ticks.count < 50 {
            ticks.append(tick)
            tick += step
        }
        return ticks
    }

    /// Round days (every 1, 2, 7, 14 or 28 days, at local midnight) covering `domain`.
    static func dayTicks(_ domain: ClosedRange<Double>, timeZone: LocalTimeZone, count: Int = 5) -> [Double] {
        let span = domain.upperBound - domain.lowerBound
        let days = [1.0, 2, 7, 14, 28, 56, 91, 182, 364].first { span / ($0 * 86_400) <= Double(count) } ?? 364
        let step = days * 86_400
        let start = Date(timeIntervalSince1970: domain.lowerBound)
        let offset = Double(timeZone.timeZone(for: start).secondsFromGMT(for: start))
        var tick = ((domain.lowerBound + offset) / 86_400).rounded(.up) * 86_400 - offset
        var ticks: [Double] = []
        while tick <= domain.upperBound, ticks.count < 50 {
            ticks.append(tick)
            tick += step
        }
        return ticks
    }
}
