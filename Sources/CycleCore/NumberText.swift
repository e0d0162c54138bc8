/// Numbers from Home Assistant and the database turned into integers and text without
/// ever trapping: `Int(someDouble)` crashes the process on NaN, infinity, or anything
/// beyond ±9.2e18, and a stored energy reading of 1e17 kWh multiplied for display is
/// enough. Every such conversion in cycletrack goes through here.
public enum NumberText {
    /// `value` rounded by `rule` as an Int; nil when not finite or beyond Int's range.
    public static func int(_ value: Double, _ rule: FloatingPointRoundingRule = .towardZero) -> Int? {
        guard value.isFinite else { return nil }
        let rounded = value.rounded(rule)
        // 2^63 is exactly representable; Int.max is not, so compare against the power.
        guard rounded >= -9_223_372_036_854_775_808.0, rounded < 9_223_372_036_854_775_808.0 else { return nil }
        return Int(rounded)
    }

    /// `12` for a whole number, else Swift's shortest round-tripping text (`0.82`);
    /// `1e+17` stays in exponent form; "" for NaN or infinity.
    public static func plain(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15, let whole = int(value) { return String(whole) }
        return String(value)
    }

    /// `value` with exactly `decimals` digits after the point (`0.82`, `12.00`); too
    /// large to count in Int, Swift's own text.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "" }
        var scale = 1
        for _ in 0..<max(0, decimals) { scale *= 10 }
        guard let scaled = int(abs(value) * Double(scale), .toNearestOrAwayFromZero) else { return String(value) }
        let sign = value < 0 && scaled > 0 ? "-" : ""
        let whole = scaled / scale
        guard decimals > 0 else { return "\(sign)\(whole)" }
        var fraction = String(scaled % scale)
        while fraction.count < decimals { fraction = "0" + fraction }
        return "\(sign)\(whole).\(fraction)"
    }

    /// Whether a reading is one an appliance could give: finite and below 1e12 in
    /// magnitude. Anything else is treated as not reported, in the core and in the store.
    public static func isPlausible(_ value: Double) -> Bool {
        value.isFinite && abs(value) < 1e12
    }
}
