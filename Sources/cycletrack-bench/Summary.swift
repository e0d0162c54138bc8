import CycleCore

/// Order statistics of a sample: median and maximum, and formatting of measured values.
enum Summary {
    /// The median (mean of the two middle values for an even count); nil when empty.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func median(_ values: [Int]) -> Double? {
        median(values.map(Double.init))
    }

    /// The `percent` percentile by nearest rank: the smallest value with at least
    /// `percent`% of the sample at or below it (p100 is the maximum); nil when empty.
    static func percentile(_ values: [Double], _ percent: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = NumberText.int(Double(sorted.count) * percent / 100, .up) ?? sorted.count
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// `value` with `decimals` digits after the point, e.g. fixed(3.14159, 2) = "3.14".
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// A count with thousands separators: 1234567 → "1,234,567".
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// A median that may be a half: "14" or "14.5".
    static func count(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : fixed(value, 1)
    }

    /// Bytes as MiB with one decimal.
    static func mebibytes(_ bytes: Double) -> String {
        fixed(bytes / 1_048_576, 1) + " MiB"
    }
}
