import CycleCore
import CycleHistory
import FoundationEssentials
import LocalTime

/// What every page needs besides the store: the clock reading of the request, the
/// zone times are shown in, and the appliances' names.
struct PageContext {
    var now: Date
    var timeZone: LocalTimeZone
    /// Appliance id → name, from the store.
    var names: [String: String]

    func name(of applianceID: String) -> String { names[applianceID] ?? applianceID }

    func program(_ key: String?) -> String { key.map(ProgramName.readable) ?? "—" }

    /// `2026-11-02 09:00`.
    func dateTime(_ date: Date) -> String { TimeText.local(date, timeZone: timeZone) }

    /// `09:00`.
    func clock(_ date: Date) -> String { String(TimeText.local(date, timeZone: timeZone).suffix(5)) }

    /// `09:00` today, else `2026-11-02 09:00`.
    func moment(_ date: Date) -> String {
        let day = TimeText.local(date, timeZone: timeZone).prefix(10)
        return day == TimeText.local(now, timeZone: timeZone).prefix(10) ? clock(date) : dateTime(date)
    }

    /// `0.82 kWh`.
    static func energy(_ kWh: Double) -> String { TimeText.fixed(kWh, decimals: 2) + " kWh" }

    /// `0.31 EUR`, or `0.31` when no currency is known.
    static func money(_ amount: Double, currency: String?) -> String {
        TimeText.fixed(amount, decimals: 2) + (currency.map { " " + $0 } ?? "")
    }

    /// A cycle's cost, or "" when none was worked out.
    static func cost(_ cycle: CycleRecord) -> String {
        cycle.cost.map { money($0, currency: cycle.currency) } ?? ""
    }

    /// `10 h 3 min ago`.
    func ago(_ date: Date) -> String { TimeText.duration(max(now.timeIntervalSince(date), 0)) + " ago" }

    /// The state pill of a cycle: its outcome, `running`, or `overdue` for an open cycle
    /// well past its expected finish (the end was likely never heard).
    func stateTag(_ cycle: CycleRecord) -> String {
        let state = cycle.outcome?.rawValue ?? (cycle.isOverdue(at: now) ? "overdue" : "running")
        return "<span class=\"state \(state)\">\(state)</span>"
    }
}
