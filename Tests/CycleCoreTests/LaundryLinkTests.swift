import FoundationEssentials
import Testing
@testable import CycleCore

/// docs/PUSHES.md, "Washer and dryer": which washer goes with which dryer, what the
/// washer's end and reminders then say, and the dryer's start stopping the reminders;
/// replayed through one household, as `run` drives it.
@Suite struct LaundryLinkTests {
    static let dryerCotton = "laundry_care_dryer_program_cotton"

    static func appliance(_ id: String, _ name: String, icon: String? = nil, dryer: String = LaundryLink.automatic)
        -> ApplianceSettings {
        var settings = ApplianceSettings(id: id, name: name)
        settings.icon = icon
        settings.dryer = dryer
        return settings
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var appliances: [ApplianceSettings]
        var links: [String: String]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "a washer and the one dryer", appliances: [appliance("washer", "Washer"), appliance("dryer", "Dryer")],
            links: ["washer": "dryer"]),
        Row(name: "in German", appliances: [appliance("waschmaschine", "Waschmaschine"), appliance("trockner", "Trockner")],
            links: ["waschmaschine": "trockner"]),
        Row(name: "told by the configured icon", appliances: [
            appliance("miele", "Miele", icon: "mdi:washing-machine"), appliance("aeg", "AEG", icon: "mdi:tumble-dryer"),
        ], links: ["miele": "aeg"]),
        Row(name: "two dryers: none, unless one is named", appliances: [
            appliance("washer", "Washer"), appliance("dryer", "Dryer"), appliance("dryer_2", "Cellar dryer"),
        ], links: [:]),
        Row(name: "two dryers, one named", appliances: [
            appliance("washer", "Washer", dryer: "dryer_2"), appliance("dryer", "Dryer"), appliance("dryer_2", "Cellar dryer"),
        ], links: ["washer": "dryer_2"]),
        Row(name: "switched off", appliances: [appliance("washer", "Washer", dryer: "off"), appliance("dryer", "Dryer")],
            links: [:]),
        Row(name: "a washer-dryer dries its own", appliances: [appliance("combo", "Washer dryer"), appliance("dryer", "Dryer")],
            links: [:]),
        Row(name: "a washer-dryer is not the dryer", appliances: [appliance("washer", "Washer"), appliance("combo", "Waschtrockner")],
            links: [:]),
        Row(name: "no dryer", appliances: [appliance("washer", "Washer"), appliance("dishwasher", "Dishwasher")], links: [:]),
        Row(name: "a dishwasher links to nothing", appliances: [appliance("dishwasher", "Dishwasher"), appliance("dryer", "Dryer")],
            links: [:]),
        Row(name: "named: any kind, if followed", appliances: [
            appliance("miele", "Miele", dryer: "aeg"), appliance("aeg", "AEG"), appliance("oven", "Oven", dryer: "nowhere"),
        ], links: ["miele": "aeg"]),
        Row(name: "never itself", appliances: [appliance("washer", "Washer", dryer: "washer")], links: [:]),
    ]

    @Test(arguments: rows)
    func theLinks(row: Row) {
        #expect(LaundryLink.links(row.appliances) == row.links)
        var household = Household(dailyLimit: 400)
        for settings in row.appliances { household.follow(settings) }
        #expect(household.dryers == row.links)
        for settings in row.appliances {
            #expect(household.tracker(settings.id)?.settings.linkedDryer
                == row.links[settings.id].flatMap { id in row.appliances.first { $0.id == id }?.name })
        }
    }

    /// `washerTrace` (a cotton wash from minute 0 to 60, then idle behind a closed door up to
    /// 200) with the dryer's lines: ready, then running from `dryerStart` (nil: never).
    static func lines(dryerStart: Double?) -> [String] {
        var lines = washerTrace().map { (line: $0, at: ISOTime.parse(String($0.dropFirst(8).prefix(20))) ?? zero) }
        lines.append((dryerLine(zero, ["operation_state": "ready", "program": dryerCotton, "door": "closed"]), zero))
        if let dryerStart {
            for minutes in stride(from: dryerStart, through: 200, by: 10) {
                let running = ["operation_state": "run", "program": dryerCotton, "progress": "10", "door": "locked",
                               "finish_time": ISOTime.format(minute(dryerStart + 90))]
                lines.append((dryerLine(minute(minutes), running), minute(minutes)))
            }
        }
        return lines.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element.line)
    }

    static func dryerLine(_ time: Date, _ raw: [String: String]) -> String {
        traceLine(time, raw).replacing(#"{"at""#, with: #"{"appliance": "dryer", "at""#)
    }

    static func replay(_ washer: ApplianceSettings = .washer(), dryer: ApplianceSettings = appliance("dryer", "Dryer"),
                       dryerStart: Double?, delivery: DeliverySettings = DeliverySettings()) throws -> ReplayResult {
        try Replay.run(settings: washer, others: [dryer], lines: numbered(lines(dryerStart: dryerStart)), delivery: delivery)
    }

    static func washerCalls(_ result: ReplayResult) -> [SupernotifyCall] {
        result.calls.filter { $0.extra["mobile_push_notification_tag"] == .string("appliance_washer_end") }
    }

    static func title(_ call: SupernotifyCall) -> String? {
        if case .string(let text)? = call.body["title"] { text } else { nil }
    }

    @Test func theWashersEndAndRemindersSayToMoveTheLaundry() throws {
        let result = try Self.replay(dryerStart: nil)
        let calls = Self.washerCalls(result)
        #expect(calls.map(\.kind) == [.end, .reminder, .reminder, .reminder])
        #expect(calls.map(Self.title) == Array(repeating: "Washer finished: move the laundry to the dryer", count: 4))
        #expect(calls.first?.message == "Cotton done in 1 h")
        #expect(result.calls.filter { $0.kind == .clear }.map(Self.title) == ["Washer finished"], "the clear as before")
    }

    @Test func theDryerStartingStopsTheReminders() throws {
        var stopStep: [TrackerEffect] = []
        let lines = numbered(Self.lines(dryerStart: 100))
        let entries = try Replay.entries(lines: lines).entries
        let result = Replay.run(settings: .washer(), others: [Self.appliance("dryer", "Dryer")], entries: entries) { steps, _ in
            guard steps.contains(where: { $0.applianceID == "dryer" && $0.observation?.at == minute(100) }) else { return }
            stopStep = steps.filter { $0.applianceID == "washer" && $0.observation == nil }.flatMap(\.effects)
        }
        #expect(Self.washerCalls(result).map(\.kind) == [.end, .reminder], "the first at 90; none from 100 on")
        #expect(Self.washerCalls(result).last?.at == minute(90))
        #expect(result.cycles.map(\.applianceID) == ["washer", "dryer"])
        // A step of the washer's beside the dryer's start, with effects, so that `run` saves its
        // state with it: the washer was unloaded, and its next reminder dropped.
        guard stopStep.count == 2, stopStep.first == .unloaded(at: minute(100)),
              case .waiting(.reminder, minute(100), let reason) = stopStep[1] else {
            Issue.record("expected unloaded, then one dropped reminder, found \(stopStep)")
            return
        }
        #expect(reason == "unload reminder 2: dropped, the dryer started")
        #expect(stopStep[1].dropsNotice == true)
    }

    @Test func aDryerStartingBeforeTheWasherEndsChangesNothing() throws {
        var lines = Self.lines(dryerStart: nil)
        lines.insert(Self.dryerLine(minute(30), ["operation_state": "run", "program": Self.dryerCotton, "door": "locked"]),
                     at: lines.firstIndex { $0.hasPrefix(#"{"at": "2026-11-02T09:00:00Z""#) } ?? 0)
        let result = try Replay.run(settings: .washer(), others: [Self.appliance("dryer", "Dryer")], lines: numbered(lines))
        #expect(Self.washerCalls(result).map(\.at) == [minute(60), minute(90), minute(120), minute(150)])
    }

    @Test func switchedOffTheWasherIsAloneAgain() throws {
        let result = try Self.replay(.washer { $0.dryer = LaundryLink.off }, dryerStart: 100)
        let calls = Self.washerCalls(result)
        #expect(calls.map(\.at) == [minute(60), minute(90), minute(120), minute(150)])
        #expect(calls.map(Self.title) == Array(repeating: "Washer finished", count: 4))
    }

    @Test func inGermanWithTheDryersName() throws {
        var washer = ApplianceSettings.washer { $0.texts = Texts.german }
        #expect(try Self.replay(washer, dryerStart: nil).calls.first { $0.kind == .end }.flatMap(Self.title)
            == "Washer fertig: Wäsche in den Trockner")
        washer.texts.finishedToDryer = "{name}: ab in den {dryer}"
        let dryer = Self.appliance("dryer", "Trockner im Keller")
        #expect(try Self.replay(washer, dryer: dryer, dryerStart: nil).calls.first { $0.kind == .end }.flatMap(Self.title)
            == "Washer: ab in den Trockner im Keller")
    }

    @Test func anEndWaitingForQuietHoursIsDroppedWhenTheDryerStarts() throws {
        var delivery = DeliverySettings()
        delivery.quietHours = QuietHours("08:30-12:00")
        var result = try Self.replay(dryerStart: 100, delivery: delivery)
        #expect(Self.washerCalls(result).isEmpty)
        #expect(result.effects.contains {
            if case .waiting(.end, _, let reason) = $0 { reason.hasSuffix("the dryer started") } else { false }
        })
        result = try Self.replay(dryerStart: nil, delivery: delivery)
        #expect(Self.washerCalls(result).isEmpty, "the end still waits at minute 200 (quiet until 240)")
    }

    @Test func settingTheDryerAtRunTimeLinksAgain() {
        var household = Household(dailyLimit: 400)
        household.follow(.washer())
        household.follow(Self.appliance("dryer", "Dryer"))
        #expect(household.dryers == ["washer": "dryer"])
        _ = household.handle(.retuned("washer", .washer { $0.dryer = LaundryLink.off }, at: zero))
        #expect(household.dryers.isEmpty)
        #expect(household.tracker("washer")?.settings.linkedDryer == nil)
        _ = household.handle(.retuned("washer", .washer(), at: zero))
        #expect(household.tracker("washer")?.settings.linkedDryer == "Dryer")
    }

    @Test func aTraceLineNamingAnApplianceNotReplayedIsAnError() {
        let lines = [traceLine(zero, ["operation_state": "run"]), Self.dryerLine(minute(1), ["operation_state": "run"])]
        #expect(throws: TraceError(line: 2, message: "expected an appliance of the replay (washer), found 'dryer'")) {
            try Replay.run(settings: .washer(), lines: numbered(lines))
        }
        #expect(throws: TraceError(line: 1, message: "expected \"appliance\" as an appliance id, found the number 5.0")) {
            try TraceLine.parse(#"{"at": "2026-11-02T08:00:00Z", "appliance": 5, "states": {}}"#, line: 1)
        }
        #expect((try? Replay.observations(lines: numbered(lines)).observations.count) == 1, "one appliance's lines alone")
    }
}
