import FoundationEssentials
import Testing
@testable import CycleCore

/// docs/PUSHES.md, "Anomalies": an alerting note respects quiet hours and presence as the end
/// notification does; what nobody may get at its moment waits, and is dropped when it cleared.
@Suite struct AnomalyAlertTests {
    /// A dishwasher running from 21:50 (UTC) with a finish time, going into error with its door
    /// open at `errorAt` (minutes from `zero`, 08:00), under `delivery`.
    private func erring(_ delivery: DeliverySettings, home: Set<String> = [], errorAt: Double = 870) -> Harness {
        var harness = Harness(.dishwasher { $0.lostAfterMinutes = 720 })
        harness.audience = Audience(delivery: delivery, home: home)
        harness.see(minute(830), states("run", progress: 5, finish: "2026-11-03T09:00:00+00:00"))
        var open = states("error", progress: 5, finish: "2026-11-03T09:00:00+00:00")
        open[.door] = "open"
        harness.see(minute(errorAt), open)
        return harness
    }

    private func described(_ effects: [TrackerEffect]) -> [String] {
        effects.calls.filter { $0.reason.contains("anomaly") }.map { "\($0.kind.rawValue) \($0.reason)" }
    }

    @Test func inQuietHoursTheNoteIsQuietAndItsAlertWaitsForTheirEnd() {
        var harness = erring(quiet())
        #expect(described(harness.all) == ["quiet anomaly: error (door open)"])
        #expect(harness.all.waiting == ["progress alert: anomaly: error (door open): quiet hours, waiting until 2026-11-03T07:00:00Z"])
        let morning = harness.tick(minute(1380))
        #expect(described(morning) == ["progress alert: anomaly: error (door open) (due 2026-11-02T22:30:00Z)"])
        #expect(morning.calls.first { $0.kind == .progress }?.message == "Error: door open")
        #expect(morning.calls.first { $0.kind == .progress }?.extra["live_update"] == .bool(true))
        let back = harness.see(minute(1390), states("run", progress: 6, finish: "2026-11-03T09:00:00+00:00"))
        #expect(back.calls.map(\.reason) == ["resume"])
        #expect(harness.all.calls.filter { $0.reason.contains("anomaly") }.count == 2, "the note, then its one alert")
    }

    @Test func anErrorThatClearsInTheNightDropsTheWaitingAlert() {
        var harness = erring(quiet())
        let back = harness.see(minute(900), states("run", progress: 6, finish: "2026-11-03T09:00:00+00:00"))
        #expect(back.waiting == ["progress alert: anomaly: error (door open): dropped, it cleared"])
        #expect(back.calls.map(\.reason) == ["resume"])
        #expect(harness.tick(minute(1380)).calls.allSatisfy { !$0.reason.contains("alert") })
        #expect(!harness.all.calls.contains { $0.kind == .progress })
    }

    @Test func theCycleEndingDropsTheWaitingAlert() {
        var harness = erring(quiet())
        let ended = harness.see(minute(900), states("ready"))
        #expect(ended.outcomes == [.failed])
        #expect(ended.waiting == ["progress alert: anomaly: error (door open): dropped, the cycle ended"])
        #expect(!harness.tick(minute(1380)).calls.contains { $0.kind == .progress })
    }

    @Test func byDayWithoutPeopleItAlertsAtOnce() {
        let harness = erring(quiet(), errorAt: 840)  // 22:00 is quiet; 21:50 + 10 min is 22:00
        #expect(described(harness.all) == ["quiet anomaly: error (door open)"])
        var day = Harness()
        day.see(zero, states("run", progress: 5))
        day.see(minute(10), states("error", progress: 5))
        #expect(described(day.all) == ["progress anomaly: error"])
        #expect(day.all.waiting.isEmpty)
    }

    private func people(home: Set<String>) -> DeliverySettings {
        var delivery = DeliverySettings()
        delivery.people = [PersonSettings(entity: "person.anna"), PersonSettings(entity: "person.ben")]
        return delivery
    }

    @Test func itAlertsThePeopleHomeAndReachesTheOthersQuietly() throws {
        var harness = Harness()
        harness.audience = Audience(delivery: people(home: []), home: ["person.anna"])
        harness.see(zero, states("run", progress: 5))
        let note = harness.see(minute(10), states("error", progress: 5))
        #expect(note.calls.map(\.kind) == [.progress, .quiet])
        let alerting = try #require(note.calls.first { $0.kind == .progress })
        #expect(alerting.body["target"] == .array([.string("person.anna")]))
        #expect(note.calls.first { $0.kind == .quiet }?.body["target"] == .array([.string("person.ben")]))
        #expect(note.waiting.isEmpty)
    }

    @Test func withNobodyHomeTheAlertWaitsForSomeoneToComeHome() {
        var harness = Harness()
        harness.audience = Audience(delivery: people(home: []))
        harness.see(zero, states("run", progress: 5))
        let note = harness.see(minute(10), states("error", progress: 5))
        #expect(note.calls.map { "\($0.kind.rawValue) \($0.reason)" } == ["quiet anomaly: error"])
        #expect(note.waiting.first?.hasPrefix("progress alert: anomaly: error: nobody home, waiting until") == true)
        harness.audience.home = ["person.ben"]
        let home = harness.reconsider(minute(20))
        let alert = home.calls.first { $0.kind == .progress }
        #expect(alert?.reason == "alert: anomaly: error (due 2026-11-02T08:10:00Z)")
        #expect(alert?.body["target"] == .array([.string("person.ben")]))
        #expect(harness.tracker.cycle?.calls == 3, "the start, the note and its alert count in the cycle")
    }
}
