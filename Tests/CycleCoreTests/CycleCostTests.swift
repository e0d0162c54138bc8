import FoundationEssentials
import Testing
@testable import CycleCore

/// A cycle's cost (issue 22): the power (or the energy counter's rise) priced at the
/// price entity's price read last, both holding until they change; a fixed price times
/// the energy when no price entity is read; the price entity's unit read for currency
/// and scale.
@Suite("Cycle cost")
struct CycleCostTests {
    static func line(_ seconds: Double, _ operation: String, watts: Double? = nil, kWh: Double? = nil, price: Double? = nil,
                     unit: String = "EUR/kWh") -> Observation {
        var raw: [Role: String] = [.operationState: operation, .program: eco50]
        raw[.power] = watts.map { String($0) }
        raw[.energy] = kWh.map { String($0) }
        raw[.price] = price.map { String($0) }
        return Observation(at: at(seconds), raw: raw, units: [.power: "W", .energy: "kWh", .price: unit])
    }

    static func ended(_ observations: [Observation], settings: ApplianceSettings = .dishwasher()) -> CycleInfo? {
        var ended: CycleInfo?
        _ = Replay.run(settings: settings, observations: observations) { steps, _ in
            for step in steps { if let cycle = step.ended { ended = cycle } }
        }
        return ended
    }

    @Test("Power × price, each holding until it changes; repeated readings change nothing")
    func powerTimesPrice() throws {
        // 2000 W at 0.30 for 20 min, at 0.60 for 10 min, then 500 W at 0.60 for 10 min:
        // 0.2 + 0.2 + 0.05 = 0.45.
        let lines = [
            Self.line(0, "run", watts: 2_000, price: 0.30),
            Self.line(300, "run", watts: 2_000, price: 0.30),
            Self.line(1_200, "run", watts: 2_000, price: 0.60),
            Self.line(1_800, "run", watts: 500, price: 0.60),
            Self.line(2_100, "run", watts: 500, price: 0.60),
            Self.line(2_400, "finished", watts: 0, price: 0.60),
        ]
        let cycle = try #require(Self.ended(lines))
        let cost = try #require(cycle.cost)
        #expect(abs(cost - 0.45) < 1e-9, "\(cost)")
        #expect(cycle.currency == "EUR")
        let sparse = try #require(Self.ended([lines[0], lines[2], lines[3], lines[5]])?.cost)
        #expect(abs(sparse - cost) < 1e-9, "the stored changes give the same cost as every poll")
    }

    @Test("An energy counter's rise at the price of the moment; a fixed price times the energy")
    func counterAndFixedPrice() throws {
        let priced = try #require(Self.ended([
            Self.line(0, "run", kWh: 100, price: 25, unit: "ct/kWh"),
            Self.line(600, "run", kWh: 100.4, price: 40, unit: "ct/kWh"),
            Self.line(1_200, "finished", kWh: 101.0, price: 40, unit: "ct/kWh"),
        ]))
        // 0.4 kWh at 0.25, then 0.6 kWh at 0.40.
        #expect(abs((priced.cost ?? 0) - 0.34) < 1e-9, "\(priced.cost ?? -1)")
        #expect(priced.currency == nil, "cents name no currency")
        let unpriced = try #require(Self.ended([Self.line(0, "run", kWh: 7), Self.line(1_200, "finished", kWh: 8.5)]))
        #expect(unpriced.cost == nil)
        #expect(abs((unpriced.cost(fixedPrice: 0.3) ?? 0) - 0.45) < 1e-9)
        #expect(unpriced.cost(fixedPrice: nil) == nil)
    }

    @Test("Price units", arguments: [
        (0.3, "EUR/kWh", 0.3, "EUR"), (300, "€/MWh", 0.3, "€"), (30, "ct/kWh", 0.3, nil), (0.3, "", 0.3, nil),
        (0.0003, "GBP/Wh", 0.3, "GBP"),
    ] as [(Double, String, Double, String?)])
    func units(value: Double, unit: String, perKWh: Double, currency: String?) {
        let (price, named) = Observation.perKWh(value, unit: unit)
        #expect(abs(price - perKWh) < 1e-9)
        #expect(named == currency)
    }
}
