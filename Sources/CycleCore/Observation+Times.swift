import FoundationEssentials

extension Observation {
    /// Brands that report times instead of a finish time and a progress (docs/CYCLES.md,
    /// "Brands"): a remaining time becomes a finish time (the observation's time plus the
    /// remaining time; a value ticking down every minute keeps it within the finish jitter),
    /// and a progress comes from elapsed / (elapsed + remaining), else from the total and
    /// the remaining time, which LG ThinQ gives as a finish time. A reported finish time or
    /// progress always wins.
    mutating func readTimes() {
        let reportedRemaining = minutes(.remainingTime)
        if finishTime == nil, let reportedRemaining, reportedRemaining >= 0 {
            finishTime = at.addingTimeInterval(reportedRemaining * 60)
        }
        let remaining = reportedRemaining ?? finishTime.map { max(0, $0.timeIntervalSince(at)) / 60 }
        guard progress == nil, let remaining, remaining >= 0 else { return }
        var fraction: Double?
        if let elapsed = minutes(.elapsedTime), elapsed >= 0, elapsed + remaining > 0 {
            fraction = elapsed / (elapsed + remaining)
        } else if let total = minutes(.totalTime), total > 0 {
            fraction = (total - remaining) / total
        }
        if let fraction, let percent = NumberText.int(min(1, max(0, fraction)) * 100, .down) {
            progress = percent
        }
    }

    /// A duration role in minutes: its unit (`unit_of_measurement`) `min`, `s`, `h` or `d`;
    /// nil for any other unit. With no unit given, minutes: what every brand shows, Electrolux
    /// included (its `timeToEnd` is native seconds, but sensor.py's `suggested_unit_of_measurement`
    /// makes HA show it in minutes).
    func minutes(_ role: Role) -> Double? {
        guard let value = Observation.number(raw[role]) else { return nil }
        switch units[role]?.trimmingASCIISpaces() ?? "min" {
        case "min", "": return value
        case "s": return value / 60
        case "h": return value * 60
        case "d": return value * 1440
        default: return nil
        }
    }
}
