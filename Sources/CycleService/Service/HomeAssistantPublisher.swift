import CycleCore
import CycleHistory
import FoundationEssentials
import HomeAssistantAPI

/// Where the publisher writes: HA's REST API (`POST /api/states`, `POST /api/events`).
public protocol HomeAssistantSurface: Sendable {
    /// Sets `entityID`'s state and attributes. False when HA refused or was away.
    func setState(entityID: String, _ state: PostedState) async -> Bool
    /// Fires the event. False when HA refused or was away.
    func fireEvent(_ event: HomeAssistantEvent) async -> Bool
}

/// Shows cycletrack inside Home Assistant (docs/REFERENCE.md, "In Home Assistant"):
///
/// - `sensor.cycletrack_<id>` per appliance: `idle`, `running`, `paused`,
///   `action_required`, `unavailable`, or how the last cycle ended (`finished`,
///   `aborted`, `failed`, `lost`) until the appliance's operation state moves on; the
///   cycle's program, progress, finish time, start and pushes, and the last cycle's
///   duration, outcome and energy as attributes;
/// - `sensor.cycletrack_pushes_today`: calls today, with the limit and what is left;
/// - events `cycletrack_cycle_started`, `cycletrack_cycle_ended`,
///   `cycletrack_push_held_back` and `cycletrack_anomaly`, for automations.
///
/// A state is posted only when it changed, and all of them again after HA restarted
/// (HA forgets states set over the REST API). While the HA integration follows the local
/// API (`entitiesQuiet`), the states are not posted (its entities show the same; no
/// duplicates), and all go again once it is gone. Without a surface nothing is posted,
/// and the publisher still makes the snapshots the local API shows (`snapshot`). Events HA could not take wait (at most
/// `maxWaitingEvents`, oldest dropped first) and go out once it answers again.
///
/// Not `Sendable`: the runner actor owns it; its async methods run on that actor.
final class HomeAssistantPublisher {
    private struct LastCycle {
        var outcome: CycleOutcome
        var endedAt: Date?
        var program: String?
        var duration: Double
        var energy: Double?
        /// The operation state read at the end: the outcome is shown until it changes.
        var endReading: String?
        var shown: Bool
    }

    private let surface: (any HomeAssistantSurface)?
    private let log: Log
    /// True while the states are not to be posted (an integration is connected).
    private let entitiesQuiet: @Sendable () -> Bool
    private var wasQuiet = false
    /// The energy of every stored cycle per appliance, kWh: the store's sum at the start, then each cycle's.
    private var energyTotals: [String: Double] = [:]
    /// HA's device id per appliance, from discovery.
    var deviceIDs: [String: String] = [:]
    /// At most this many events wait for HA.
    let maxWaitingEvents = 100
    private var posted: [String: PostedState] = [:]
    private var last: [String: LastCycle] = [:]
    private var waitingEvents: [HomeAssistantEvent] = []
    private var saidRefused = false
    /// How many times `publish` went to HA (with a surface, not quiet), for the tests:
    /// a poll or a burst publishes once.
    private(set) var publications = 0

    init(surface: (any HomeAssistantSurface)?, log: Log, entitiesQuiet: @escaping @Sendable () -> Bool = { false }) {
        self.surface = surface
        self.log = log
        self.entitiesQuiet = entitiesQuiet
    }

    /// Whether it posts to HA at all (else it only makes snapshots).
    var posts: Bool { surface != nil }

    /// Takes the stored cycles' energy sums (kWh per appliance).
    func rememberEnergy(_ totals: [String: Double]) { energyTotals = totals }

    /// The entity of the day's calls: their count, the limit, what is left.
    static let pushesTodayEntityID = "sensor.cycletrack_pushes_today"

    /// The entity id for an appliance: HA's ids are lowercase letters, digits and `_`.
    static func entityID(for applianceID: String) -> String {
        let cleaned = applianceID.lowercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "_"
        }
        return "sensor.cycletrack_" + String(cleaned)
    }

    /// Takes the last ended cycle of each appliance from the history, for the attributes.
    func remember(_ cycle: CycleRecord) {
        guard let outcome = cycle.outcome, let ended = cycle.endedAt, last[cycle.applianceID] == nil else { return }
        last[cycle.applianceID] = LastCycle(outcome: outcome, endedAt: ended, program: cycle.program,
                                            duration: ended.timeIntervalSince(cycle.startedAt), energy: cycle.energyKWh,
                                            endReading: nil, shown: false)
    }

    /// HA restarted (or came back): every state goes again at the next `publish`.
    func forgetPosted() { posted.removeAll() }

    /// Turns one event's steps into HA events and notes what ended.
    func take(_ steps: [Household.Step], household: Household) {
        for step in steps {
            let id = step.applianceID
            let settings = household.tracker(id)?.settings
            let name = settings?.name ?? id
            if step.ended == nil, let reading = step.observation?.raw[.operationState],
               let before = last[id], before.shown, reading != before.endReading {
                last[id]?.shown = false
            }
            var noted: Set<String> = []
            for effect in step.effects {
                switch effect {
                case .cycleStarted(let at, let program):
                    fire(Self.cycleStarted, [
                        ("appliance_id", .string(id)), ("name", .string(name)),
                        ("program", program.map(JSONValue.string) ?? .null),
                        ("program_name", program.map { .string(ProgramName.readable($0)) } ?? .null),
                        ("started_at", .string(ISOTime.format(at))),
                    ])
                case .cycleEnded(let at, let outcome):
                    ended(step, at: at, outcome: outcome, settings: settings)
                case .waiting(let kind, let at, let reason):
                    fire(Self.pushWaiting, notice(id, name: name, kind: kind, at: at, reason: reason))
                case .heldBack(let kind, let at, let reason):
                    fire(Self.pushHeldBack, notice(id, name: name, kind: kind, at: at, reason: reason))
                case .call(let call):
                    // One event per note, also when it went out as two calls (some people in quiet hours).
                    guard let anomaly = call.anomaly, !noted.contains(call.reason) else { break }
                    noted.insert(call.reason)
                    fire(Self.anomaly, notice(id, name: name, kind: call.kind, at: call.at, reason: call.reason)
                        + [("anomaly", .string(anomaly))])
                case .warning:
                    break
                }
            }
        }
    }

    /// The events cycletrack fires (docs/REFERENCE.md, "In Home Assistant").
    static let cycleStarted = "cycletrack_cycle_started"
    static let cycleEndedEvent = "cycletrack_cycle_ended"
    static let pushWaiting = "cycletrack_push_waiting"
    static let pushHeldBack = "cycletrack_push_held_back"
    static let anomaly = "cycletrack_anomaly"

    private func notice(_ id: String, name: String, kind: CallKind, at: Date, reason: String) -> [(String, JSONValue)] {
        [("appliance_id", .string(id)), ("name", .string(name)), ("kind", .string(kind.rawValue)),
         ("reason", .string(reason)), ("at", .string(ISOTime.format(at)))]
    }

    /// Notes the cycle that ended (shown until the operation state moves on) and fires
    /// `cycletrack_cycle_ended` with its summary.
    private func ended(_ step: Household.Step, at: Date, outcome: CycleOutcome, settings: ApplianceSettings?) {
        let id = step.applianceID
        let cycle = step.ended
        let duration = cycle.map { at.timeIntervalSince($0.startedAt) }
        let estimateError = cycle?.firstPredictedFinish.map { at.timeIntervalSince($0) }
        let energy = cycle?.energyUsed.flatMap { NumberText.isPlausible($0) && $0 >= 0 ? $0 : nil }
        last[id] = LastCycle(outcome: outcome, endedAt: at, program: cycle?.program, duration: duration ?? 0,
                             energy: energy, endReading: step.observation?.raw[.operationState], shown: true)
        if let energy { energyTotals[id, default: 0] += energy }
        let cost = cycle?.cost(fixedPrice: settings?.pricePerKWh).flatMap { NumberText.isPlausible($0) ? $0 : nil }
        fire(Self.cycleEndedEvent, [
            ("appliance_id", .string(id)), ("name", .string(settings?.name ?? id)),
            ("outcome", .string(outcome.rawValue)),
            ("program", cycle?.program.map(JSONValue.string) ?? .null),
            ("program_name", cycle?.program.map { JSONValue.string(ProgramName.readable($0)) } ?? .null),
            ("started_at", cycle.map { JSONValue.string(ISOTime.format($0.startedAt)) } ?? .null),
            ("ended_at", .string(ISOTime.format(at))),
            ("duration_seconds", Self.seconds(duration)),
            ("energy_kwh", energy.map(JSONValue.double) ?? .null),
            ("cost", cost.map { JSONValue.double(($0 * 10_000).rounded() / 10_000) } ?? .null),
            ("currency", (cycle?.currency ?? settings?.currency).map(JSONValue.string) ?? .null),
            ("pushes", cycle.map { JSONValue.int($0.calls) } ?? .null),
            ("estimate_error_seconds", Self.seconds(estimateError)),
        ])
    }

    /// Posts every state that changed since it was last posted, and the waiting events.
    nonisolated(nonsending) func publish(_ household: Household, at now: Date) async {
        guard let surface else { return }
        var pending = waitingEvents
        waitingEvents = []
        while let event = pending.first {
            guard await surface.fireEvent(event) else {
                waitingEvents = pending + waitingEvents
                refused("event \(event.type)")
                return
            }
            pending.removeFirst()
        }
        let quiet = entitiesQuiet()
        defer { wasQuiet = quiet }
        if quiet { return }
        publications += 1
        // Back from quiet: HA may show anything by now; every state goes again.
        if wasQuiet { posted.removeAll() }
        var states: [(String, PostedState)] = household.order.map { id in
            (Self.entityID(for: id), postedState(snapshot(id, household: household)))
        }
        let calls = household.callsCounted(on: now)
        states.append((Self.pushesTodayEntityID, PostedState(state: .int(calls), attributes: JSONObject([
            ("limit", .int(household.dailyLimit)), ("left", .int(max(0, household.dailyLimit - calls))),
            ("unit_of_measurement", .string("calls")), ("state_class", .string("total")),
            ("friendly_name", .string("cycletrack pushes today")), ("icon", .string("mdi:cellphone-message")),
        ]))))
        for (entity, state) in states where posted[entity] != state {
            guard await surface.setState(entityID: entity, state) else {
                refused("state of \(entity)")
                return
            }
            posted[entity] = state
        }
        saidRefused = false
    }

    /// The appliance as the entity and the local API show it.
    func snapshot(_ id: String, household: Household) -> ApplianceSnapshot {
        let tracker = household.tracker(id)
        let settings = tracker?.settings ?? ApplianceSettings(id: id, name: id)
        let status = tracker?.status ?? ApplianceStatus(phase: .idle)
        let cycle = tracker?.cycle
        let previous = last[id]
        let state = if status.phase == .idle, let previous, previous.shown { previous.outcome.rawValue } else { status.phase.rawValue }
        let program = status.program ?? cycle?.program
        let lastCycle = previous.map {
            ApplianceSnapshot.LastCycle(outcome: $0.outcome, endedAt: $0.endedAt, duration: $0.duration, energy: $0.energy, program: $0.program)
        }
        return ApplianceSnapshot(
            id: id, name: settings.name, profile: settings.profile, deviceID: deviceIDs[id], state: state,
            running: cycle != nil, program: program, progress: status.progress, finish: status.finishTime,
            startedAt: cycle?.startedAt, pushes: cycle?.calls, lastCycle: lastCycle, energyTotal: energyTotals[id] ?? 0,
            icon: settings.icon ?? ApplianceIcon.guess(programKey: program ?? previous?.program, name: settings.name),
            settings: settings, liveActivityShown: tracker?.hasLiveActivity ?? false)
    }

    private func postedState(_ snapshot: ApplianceSnapshot) -> PostedState {
        let previous = snapshot.lastCycle
        let attributes: [(String, JSONValue)] = [
            ("program", snapshot.program.map { .string(ProgramName.readable($0)) } ?? .null),
            ("program_key", snapshot.program.map(JSONValue.string) ?? .null),
            ("progress", snapshot.progress.map(JSONValue.int) ?? .null),
            ("finish_time", snapshot.finish.map { .string(ISOTime.format($0)) } ?? .null),
            ("started_at", snapshot.startedAt.map { .string(ISOTime.format($0)) } ?? .null),
            ("pushes", snapshot.pushes.map(JSONValue.int) ?? .null),
            ("last_outcome", previous.map { .string($0.outcome.rawValue) } ?? .null),
            ("last_program", previous?.program.map { .string(ProgramName.readable($0)) } ?? .null),
            ("last_duration_seconds", Self.seconds(previous?.duration)),
            ("last_energy_kwh", previous?.energy.map(JSONValue.double) ?? .null),
            ("appliance_id", .string(snapshot.id)),
            ("friendly_name", .string("\(snapshot.name) cycle")),
            ("icon", .string(snapshot.icon)),
        ]
        return PostedState(state: .string(snapshot.state), attributes: JSONObject(attributes))
    }

    private func fire(_ type: String, _ data: [(String, JSONValue)]) {
        guard surface != nil else { return }
        waitingEvents.append(HomeAssistantEvent(type: type, data: JSONObject(data)))
        if waitingEvents.count > maxWaitingEvents {
            waitingEvents.removeFirst(waitingEvents.count - maxWaitingEvents)
        }
    }

    private func refused(_ what: String) {
        guard !saidRefused else { return }
        saidRefused = true
        log.warning("ha_publish_failed", ["what": what, "action": "kept, and posted again once HA answers"])
    }

    private static func seconds(_ value: Double?) -> JSONValue {
        value.flatMap { NumberText.int($0, .toNearestOrAwayFromZero) }.map(JSONValue.int) ?? .null
    }
}
