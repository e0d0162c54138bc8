import FoundationEssentials
@testable import CycleCore

/// 2026-11-02T08:00:00Z: time zero of every scripted test.
let zero = Date(timeIntervalSince1970: 1_793_606_400)

/// `zero` plus some seconds.
func at(_ seconds: Double) -> Date { zero.addingTimeInterval(seconds) }

/// `zero` plus some minutes.
func minute(_ minutes: Double) -> Date { zero.addingTimeInterval(minutes * 60) }

let eco50 = "dishcare_dishwasher_program_eco_50"
/// 2026-11-02T11:37:00Z.
let finishA = "2026-11-02T11:37:00+00:00"
let finishAUnix = 1_793_619_420

extension ApplianceSettings {
    static func dishwasher(_ change: (inout ApplianceSettings) -> Void = { _ in }) -> ApplianceSettings {
        var settings = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        change(&settings)
        return settings
    }
}

/// HA's states for one moment, by role.
func states(_ operation: String?, progress: Int? = nil, finish: String? = nil, program: String? = eco50,
            temperature: Double? = nil) -> [Role: String] {
    var raw: [Role: String] = [:]
    raw[.operationState] = operation
    raw[.progress] = progress.map(String.init)
    raw[.finishTime] = finish
    raw[.program] = program
    raw[.temperature] = temperature.map { String($0) }
    return raw
}

/// Drives one tracker through a script of observations and ticks, keeping a one-day
/// budget the way the service does: calls counted, open cycles from the tracker.
struct Harness {
    var tracker: ApplianceTracker
    var budget: DailyBudget
    /// Quiet hours, people and who is home, as the household hands them on.
    var audience = Audience()
    private(set) var all: [TrackerEffect] = []

    init(_ settings: ApplianceSettings = .dishwasher(), budget: DailyBudget = DailyBudget()) {
        tracker = ApplianceTracker(settings: settings)
        self.budget = budget
    }

    init(restoring snapshot: ApplianceTracker.Snapshot, settings: ApplianceSettings = .dishwasher()) {
        tracker = ApplianceTracker(settings: settings, restoring: snapshot)
        budget = DailyBudget()
    }

    @discardableResult
    mutating func see(_ time: Date, _ raw: [Role: String]) -> [TrackerEffect] {
        record(tracker.observe(Observation(at: time, raw: raw), budget: current, audience: audience))
    }

    @discardableResult
    mutating func tick(_ time: Date) -> [TrackerEffect] {
        record(tracker.advance(to: time, budget: current, audience: audience))
    }

    /// Someone came home or left.
    @discardableResult
    mutating func reconsider(_ time: Date) -> [TrackerEffect] {
        record(tracker.reconsider(at: time, budget: current, audience: audience))
    }

    var calls: [SupernotifyCall] { all.calls }

    private var current: DailyBudget {
        var budget = budget
        budget.openCycles += tracker.cycle == nil ? 0 : 1
        return budget
    }

    private mutating func record(_ effects: [TrackerEffect]) -> [TrackerEffect] {
        budget.usedToday += effects.calls.count
        all += effects
        return effects
    }
}

extension Array where Element == TrackerEffect {
    var calls: [SupernotifyCall] { compactMap { if case .call(let call) = $0 { call } else { nil } } }
    var kinds: [CallKind] { calls.map(\.kind) }
    var heldBack: [String] {
        compactMap { if case .heldBack(let kind, _, let reason) = $0 { "\(kind.rawValue) \(reason)" } else { nil } }
    }
    var outcomes: [CycleOutcome] {
        compactMap { if case .cycleEnded(_, let outcome) = $0 { outcome } else { nil } }
    }
    var starts: Int { filter { if case .cycleStarted = $0 { true } else { false } }.count }
}

extension SupernotifyCall {
    var message: String? { if case .string(let text)? = body["message"] { text } else { nil } }
    var extra: JSONObject {
        if case .object(let object)? = body["extra_data"] { return object }
        return JSONObject()
    }
    var progress: Int? { if case .int(let value)? = extra["progress"] { value } else { nil } }
    var when: Int? { if case .int(let value)? = extra["when"] { value } else { nil } }
}

/// One trace line as `cycletrack run` records it.
func traceLine(_ time: Date, _ raw: [String: String]) -> String {
    let states = raw.keys.sorted().map { "\"\($0)\": \"\(raw[$0] ?? "")\"" }.joined(separator: ", ")
    return "{\"at\": \"\(ISOTime.format(time))\", \"states\": {\(states)}}"
}

/// Numbers lines from 1, as a file would.
func numbered(_ lines: [String]) -> [(number: Int, text: String)] {
    lines.enumerated().map { (number: $0.offset + 1, text: $0.element) }
}
