import CycleCore
import Foundation
import Testing
import TestSupport
@testable import CycleService
import HomeAssistantAPI

/// The `cycletrack_anomaly` event (docs/PUSHES.md, "Anomalies"): one per anomaly note, with
/// what it says is wrong, for automations.
@Suite struct AnomalyEventTests {
    static func line(_ minutes: Double, _ operation: String, door: String) -> Observation {
        Observation(at: Date(timeIntervalSince1970: 1_793_606_400 + minutes * 60),
                    raw: [.operationState: operation, .progress: "20", .door: door])
    }

    @Test func anActionRequiredFiresOneEventWithItsReason() throws {
        let settings = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        var household = Household(dailyLimit: 400)
        household.follow(settings, history: FinishHistory())
        var events: [HomeAssistantEvent] = []
        for observation in [Self.line(0, "run", door: "closed"), Self.line(10, "actionrequired", door: "open"),
                            Self.line(20, "run", door: "closed"), Self.line(30, "actionrequired", door: "open"),
                            Self.line(40, "finished", door: "closed")] {
            for step in household.handle(.observed(settings.id, observation)) {
                events += PostedEvents.of(step, settings: settings)
            }
        }
        let anomalies = events.filter { $0.type == "cycletrack_anomaly" }
        #expect(anomalies.count == 1, "once per cycle")
        let event = try #require(anomalies.first)
        let data = try #require(try JSONSerialization.jsonObject(with: Data(event.data.compactJSON().utf8)) as? [String: Any])
        #expect(data["appliance_id"] as? String == "dishwasher")
        #expect(data["name"] as? String == "Dishwasher")
        #expect(data["kind"] as? String == "progress")
        #expect(data["reason"] as? String == "anomaly: action required (door open)")
        #expect(data["anomaly"] as? String == "action required (door open)")
        #expect(data["at"] as? String == "2026-11-02T08:10:00Z")
    }

    @Test func theLocalAPIsStreamTellsTheNoteOnce() {
        let settings = ApplianceSettings(id: "dishwasher", name: "Dishwasher")
        var household = Household(dailyLimit: 400)
        household.follow(settings, history: FinishHistory())
        var events: [ServiceEvent] = []
        for observation in [Self.line(0, "run", door: "closed"), Self.line(10, "actionrequired", door: "open"),
                            Self.line(20, "run", door: "closed"), Self.line(30, "actionrequired", door: "open")] {
            events += ServiceEvent.of(household.handle(.observed(settings.id, observation)))
        }
        let anomalies = events.filter { if case .anomaly = $0 { true } else { false } }
        #expect(anomalies == [.anomaly(appliance: "dishwasher", anomaly: "action required (door open)",
                                       reason: "anomaly: action required (door open)",
                                       at: Date(timeIntervalSince1970: 1_793_606_400 + 600))])
    }
}
