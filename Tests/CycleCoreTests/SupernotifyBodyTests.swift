import FoundationEssentials
import Testing
@testable import CycleCore

/// docs/PUSHES.md's bodies ("Body fields"), field by field.
@Suite struct SupernotifyBodyTests {
    static let liveHead = #""mobile_push_notification_tag":"appliance_dishwasher","live_update":true,"notification_icon":"mdi:dishwasher","channel":"Appliances","importance":"high","sticky":true"#
    static let mobileOnly = #""force_resend":true,"delivery_selection":"fixed","delivery":["mobile_push"]"#

    /// A finished dishwasher cycle: start, a quiet step, a pause, the resume, clear and end.
    static func cycle(_ settings: ApplianceSettings = .dishwasher()) -> Harness {
        var harness = Harness(settings)
        harness.see(zero, states("run", progress: 0, finish: finishA))
        harness.see(minute(10), states("run", progress: 10, finish: finishA))
        harness.see(minute(11), states("pause", progress: 10, finish: "2026-11-02T11:38:00+00:00"))
        harness.see(minute(12), states("run", progress: 11, finish: finishA))
        harness.see(minute(134), states("finished", progress: 100))
        return harness
    }

    @Test func exactBodiesOfACycle() {
        let calls = Self.cycle().calls
        #expect(calls.map(\.kind) == [.start, .quiet, .quiet, .quiet, .clear, .end])
        #expect(calls.map(\.reason) == ["start", "step 10", "pause", "resume", "clear: finished", "end: finished"])
        let head = Self.liveHead
        #expect(calls[0].bodyJSON() == #"{"title":"Dishwasher","message":"Dishwasher started: Eco 50°C","force_resend":true,"extra_data":{"# + head + #","progress":0,"progress_max":100,"chronometer":true,"when":1793619420}}"#)
        #expect(calls[1].bodyJSON() == #"{"title":"Dishwasher","message":"Eco 50°C","# + Self.mobileOnly + #","extra_data":{"# + head + #","progress":10,"progress_max":100,"chronometer":true,"when":1793619420,"silent":true,"alert_once":true}}"#)
        #expect(calls[2].bodyJSON() == #"{"title":"Dishwasher","message":"Paused","# + Self.mobileOnly + #","extra_data":{"# + head + #","progress":10,"progress_max":100,"critical_text":"10%","silent":true,"alert_once":true}}"#)
        #expect(calls[3].bodyJSON() == #"{"title":"Dishwasher","message":"Eco 50°C","# + Self.mobileOnly + #","extra_data":{"# + head + #","progress":11,"progress_max":100,"chronometer":true,"when":1793619420,"silent":true,"alert_once":true}}"#)
        #expect(calls[4].bodyJSON() == #"{"title":"Dishwasher finished","message":"Dishwasher finished","# + Self.mobileOnly + #","extra_data":{"mobile_push_notification_tag":"appliance_dishwasher","mobile_push_clear_notification":true}}"#)
        #expect(calls[5].bodyJSON() == #"{"title":"Dishwasher finished","message":"Eco 50°C done in 2 h 14 min","force_resend":true,"extra_data":{"mobile_push_notification_tag":"appliance_dishwasher_end","notification_icon":"mdi:dishwasher"}}"#)
    }

    @Test func exactProgressBody() {
        var harness = Harness(.dishwasher { $0.notifyProgress = true })
        harness.see(zero, states("run", progress: 0, finish: finishA))
        let calls = harness.see(minute(10), states("run", progress: 10, finish: finishA)).calls
        #expect(calls.map(\.kind) == [.progress])
        #expect(calls.first?.bodyJSON() == #"{"title":"Dishwasher","message":"10% complete","force_resend":true,"extra_data":{"# + Self.liveHead + #","progress":10,"progress_max":100,"chronometer":true,"when":1793619420}}"#)
    }

    @Test func everyCallForcesResendAndNeverSendsForbiddenKeys() {
        let forbidden = ["priority", "image", "icon_url", "group", "when_relative", "timeout", "visibility"]
        let settings = ApplianceSettings.dishwasher {
            $0.color = "#1E88E5"; $0.relevance = 0.5; $0.persistent = true; $0.fcmHighPriority = true
            $0.dashboard = "/dashboard-kitchen"; $0.target = ["person.alice"]
        }
        for call in Self.cycle(settings).calls {
            #expect(call.body["force_resend"] == .bool(true))
            for key in forbidden { #expect(call.extra[key] == nil && call.body[key] == nil) }
        }
    }

    @Test func optionsAddTheirFieldsOnlyWhenSet() {
        let plain = Self.cycle().calls[1].extra
        for key in ["notification_icon_color", "relevance_score", "persistent", "mobile_push_critical_priority",
                    "mobile_push_critical_ttl", "url", "clickAction"] {
            #expect(plain[key] == nil)
        }
        let settings = ApplianceSettings.dishwasher {
            $0.color = "#1E88E5"; $0.relevance = 0.5; $0.persistent = true; $0.fcmHighPriority = true
        }
        let quiet = Self.cycle(settings).calls[1]
        #expect(quiet.bodyJSON().hasSuffix(##""silent":true,"alert_once":true,"notification_icon_color":"#1E88E5","relevance_score":0.5,"persistent":true,"mobile_push_critical_priority":"high","mobile_push_critical_ttl":0}}"##))
    }

    @Test func targetOnEveryCallOnlyWhenNonEmpty() {
        for call in Self.cycle(.dishwasher { $0.target = ["person.alice", "person.bob"] }).calls {
            #expect(call.body["target"] == .array([.string("person.alice"), .string("person.bob")]))
            #expect(call.body.keys.last == "extra_data")
        }
        #expect(Self.cycle(.dishwasher { $0.target = [] }).calls.allSatisfy { $0.body["target"] == nil })
        let quiet = Self.cycle(.dishwasher { $0.target = ["person.alice"] }).calls[1]
        #expect(quiet.body.keys == ["title", "message", "force_resend", "delivery_selection", "delivery", "target", "extra_data"])
    }

    @Test func dashboardOnLiveCallsAndTheEndNotTheClear() {
        let calls = Self.cycle(.dishwasher { $0.dashboard = "/dashboard-kitchen" }).calls
        for call in calls where call.kind != .clear {
            #expect(call.extra["url"] == .string("/dashboard-kitchen"))
            #expect(call.extra["clickAction"] == .string("/dashboard-kitchen"))
        }
        #expect(calls.filter { $0.kind == .clear }.allSatisfy { $0.extra["url"] == nil })
        #expect(calls[1].bodyJSON().contains(#""sticky":true,"url":"/dashboard-kitchen","clickAction":"/dashboard-kitchen","progress":10"#))
    }

    @Test func mobileOnlyCallsNameTheMobileDeliveries() {
        let calls = Self.cycle(.dishwasher { $0.mobileDeliveries = ["mobile_push", "apple_push"] }).calls
        let mobile: JSONValue = .array([.string("mobile_push"), .string("apple_push")])
        for call in calls {
            let mobileOnly = call.kind == .quiet || call.kind == .clear
            #expect(call.body["delivery"] == (mobileOnly ? mobile : nil))
            #expect(call.body["delivery_selection"] == (mobileOnly ? .string("fixed") : nil))
        }
    }

    @Test func textsAreReplaced() {
        var texts = Texts()
        texts.startedProgram = "{name} gestartet: {program}"
        texts.paused = "Pausiert"
        texts.finished = "{name} fertig"
        texts.doneIn = "{program} fertig nach {duration}"
        texts.hours = "Std."
        let calls = Self.cycle(.dishwasher { $0.name = "Geschirrspüler"; $0.texts = texts }).calls
        #expect(calls.map(\.message) == [
            "Geschirrspüler gestartet: Eco 50°C", "Eco 50°C", "Pausiert", "Eco 50°C",
            "Geschirrspüler fertig", "Eco 50°C fertig nach 2 Std. 14 min",
        ])
        #expect(calls[4].body["title"] == .string("Geschirrspüler fertig"))
    }

    @Test func endSummaryWithoutAProgram() {
        var harness = Harness()
        harness.see(zero, states("run", progress: 0, finish: finishA, program: nil))
        let end = harness.see(minute(45.9), states("finished", program: nil)).calls.last
        #expect(end?.message == "Done in 45 min")
        #expect(end?.extra["notification_icon"] == .string("mdi:dishwasher"))
    }

    @Test(arguments: [
        ("dishwasher", "appliance_dishwasher"),
        ("Küche Spüler.2", "appliance_K_che_Sp_ler_2"),
        (String(repeating: "a", count: 80), "appliance_" + String(repeating: "a", count: 50)),
    ])
    func tagsAreSanitised(id: String, live: String) {
        #expect(NotificationTag.live(applianceID: id) == live)
        #expect(NotificationTag.end(applianceID: id) == live + "_end")
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
        #expect(NotificationTag.end(applianceID: id).count <= 64)
        #expect(NotificationTag.end(applianceID: id).allSatisfy(allowed.contains))
    }

    @Test func bodiesAreShortenedToFourKilobytes() {
        var texts = Texts()
        texts.paused = String(repeating: "Pause ", count: 1000)
        texts.finished = String(repeating: "Fertig ", count: 1000)
        let calls = Self.cycle(.dishwasher { $0.texts = texts }).calls
        for call in calls { #expect(call.bodyJSON().utf8.count <= 4096) }
        let paused = calls[2]
        #expect(paused.message?.hasSuffix("…") == true)
        #expect(paused.body["title"] == .string("Dishwasher"))
        #expect(paused.bodyJSON().utf8.count > 4000)
        // The clear's title and message are both the long text: the message goes first, then the title.
        let clear = calls[4]
        #expect(clear.message == "…")
        guard case .string(let title)? = clear.body["title"] else { Issue.record("no title"); return }
        #expect(title.hasSuffix("…") && title.count > 100)
        #expect(Self.cycle().calls.allSatisfy { $0.message?.hasSuffix("…") == false })
    }

    @Test(arguments: [
        (Optional(eco50), Optional(180.0), nil as String?, "Eco 50°C · 180°C"),
        ("cooking_oven_program_heating_mode_hot_air", 180.5, "°F", "Hot air · 180.5°F"),
        (nil, 180, nil, "180°C"),
        (eco50, nil, nil, "Eco 50°C"),
    ] as [(String?, Double?, String?, String)])
    func quietMessageShowsTheTemperatureAfterTheProgram(program: String?, temperature: Double?, unit: String?,
                                                        message: String) {
        var view = CycleView()
        view.program = program
        view.temperature = temperature
        view.temperatureUnit = unit
        #expect(SupernotifyBody.quietMessage(view: view, settings: .dishwasher()) == message)
    }

    @Test func quietMessageFallsBackToThePercentageThenRunning() {
        var view = CycleView()
        view.progress = 40
        #expect(SupernotifyBody.quietMessage(view: view, settings: .dishwasher()) == "40%")
        #expect(SupernotifyBody.quietMessage(view: CycleView(), settings: .dishwasher()) == "Running")
        view.pause = .actionRequired
        #expect(SupernotifyBody.quietMessage(view: view, settings: .dishwasher()) == "Action required")
    }

    @Test func criticalTextOnlyWithProgressAndNoFinishTime() {
        var harness = Harness()
        let start = harness.see(zero, states("run", progress: 3)).calls[0]
        #expect(start.extra["critical_text"] == .string("3%"))
        #expect(start.extra["chronometer"] == nil)
        var timed = Harness()
        #expect(timed.see(zero, states("run", progress: 3, finish: finishA)).calls[0].extra["critical_text"] == nil)
        var bare = Harness()
        let none = bare.see(zero, states("run")).calls[0].extra
        #expect(none["critical_text"] == nil && none["progress"] == nil && none["when"] == nil)
    }

    @Test func iconFromSettingsThenProgramThenName() {
        var harness = Harness(.dishwasher { $0.icon = "mdi:silverware-clean" })
        #expect(harness.see(zero, states("run")).calls[0].extra["notification_icon"] == .string("mdi:silverware-clean"))
        var oven = Harness(.dishwasher { $0.name = "Kitchen" })
        let guessed = oven.see(zero, states("run", program: "cooking_oven_program_heating_mode_hot_air")).calls[0]
        #expect(guessed.extra["notification_icon"] == .string("mdi:stove"))
    }
}
