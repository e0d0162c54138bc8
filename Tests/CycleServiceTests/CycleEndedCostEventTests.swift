import CycleCore
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import CycleHistory
@testable import CycleService
import HomeAssistantAPI

/// The `cycletrack_cycle_ended` event carries the cycle's cost and currency (issue 22):
/// from the price entity's prices read during the cycle, or the fixed price times the
/// energy; null without a price.
@Suite("Cycle-ended event cost")
struct CycleEndedCostEventTests {
    final class Surface: HomeAssistantSurface {
        let events = Mutex<[(type: String, data: String)]>([])
        func setState(entityID: String, _ state: PostedState) async -> Bool { true }
        func removeState(entityID: String) async -> StateRemoval { .gone }
        func fireEvent(_ event: HomeAssistantEvent) async -> Bool {
            events.withLock { $0.append((event.type, event.data.compactJSON())) }
            return true
        }
    }

    /// Runs the observations through a household and its poster; the ended event's data.
    static func endedEvent(_ settings: ApplianceSettings, _ observations: [Observation]) async throws -> [String: Any] {
        let surface = Surface()
        let fixture = try StoreFixture()
        let store = try HistoryStore(path: fixture.path())
        let poster = try HomeAssistantPoster(surface: surface, store: store, log: LogCapture().log, appliances: [settings.id])
        var snapshots = ApplianceSnapshots()
        var household = Household(dailyLimit: 400)
        household.follow(settings, history: FinishHistory())
        for observation in observations {
            let steps = household.handle(.observed(settings.id, observation))
            snapshots.take(steps)
            poster.take(steps, household: household)
        }
        await poster.publish(household, snapshots: snapshots, at: observations.last?.at ?? Date())
        let ended = try #require(surface.events.withLock { $0 }.first { $0.type == "cycletrack_cycle_ended" })
        return try #require(try JSONSerialization.jsonObject(with: Data(ended.data.utf8)) as? [String: Any])
    }

    static func line(_ minutes: Double, _ operation: String, watts: Double? = nil, kWh: Double? = nil, price: Double? = nil) -> Observation {
        var raw: [Role: String] = [.operationState: operation]
        raw[.power] = watts.map { String($0) }
        raw[.energy] = kWh.map { String($0) }
        raw[.price] = price.map { String($0) }
        return Observation(at: Date(timeIntervalSince1970: 1_793_606_400 + minutes * 60), raw: raw,
                           units: [.power: "W", .energy: "kWh", .price: "EUR/kWh"])
    }

    @Test("A price entity: the cost of power × price, in the entity's currency")
    func priceEntity() async throws {
        // 2 kW for 30 min at 0.30, then for 30 min at 0.50: 0.30 + 0.50 = 0.80.
        let data = try await Self.endedEvent(ApplianceSettings(id: "dryer", name: "Dryer"), [
            Self.line(0, "run", watts: 2_000, price: 0.30),
            Self.line(30, "run", watts: 2_000, price: 0.50),
            Self.line(60, "finished", watts: 0, price: 0.50),
        ])
        #expect(abs((data["cost"] as? Double ?? 0) - 0.8) < 1e-6, "\(data)")
        #expect(data["currency"] as? String == "EUR")
    }

    @Test("A fixed price: the energy times the price; none: null")
    func fixedPrice() async throws {
        var settings = ApplianceSettings(id: "washer", name: "Washer")
        settings.pricePerKWh = 0.25
        settings.currency = "GBP"
        let lines = [Self.line(0, "run", kWh: 10), Self.line(60, "finished", kWh: 11.2)]
        let data = try await Self.endedEvent(settings, lines)
        #expect(abs((data["cost"] as? Double ?? 0) - 0.3) < 1e-6, "\(data)")
        #expect(data["currency"] as? String == "GBP")
        let unpriced = try await Self.endedEvent(ApplianceSettings(id: "washer", name: "Washer"), lines)
        #expect(unpriced["cost"] is NSNull && unpriced["currency"] is NSNull, "\(unpriced)")
    }

    @Test("price in the configuration: a fixed price reaches every appliance, the entity becomes their price role")
    func configuration() throws {
        let config = try ConfigurationLoader.parse(Data(#"""
            {"price": {"per_kwh": 0.32, "currency": "EUR", "entity": "sensor.electricity_price"},
             "discover": false,
             "appliances": [{"id": "washer", "operation_state_entity": "sensor.washer_operation_state"},
                            {"id": "dryer", "operation_state_entity": "sensor.dryer_operation_state", "price_entity": "sensor.dryer_tariff"}]}
            """#.utf8), file: "c.json")
        let tracked = try ApplianceDirectory.resolve(config, discovered: nil)
        #expect(tracked.first { $0.id == "washer" }?.entities[.price] == "sensor.electricity_price")
        #expect(tracked.first { $0.id == "dryer" }?.entities[.price] == "sensor.dryer_tariff")
        #expect(tracked.allSatisfy { $0.settings.pricePerKWh == 0.32 && $0.settings.currency == "EUR" })
        #expect { try ConfigurationLoader.parse(Data(#"{"price": {"entity": "electricity"}}"#.utf8), file: "c.json") } throws: { error in
            "\(error)".contains("price.entity")
        }
    }
}
