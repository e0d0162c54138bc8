import CycleCore
import CycleHistory
import Foundation
import Testing

/// The cost of a cycle with a dynamic tariff against a real Home Assistant: a washer on
/// a smart plug (the template power sensor) and a price entity whose price changes while
/// the cycle runs. The stored cost equals the integral of power × price over what Home
/// Assistant showed during the cycle (each reading holding until the next), within a cent.
@Suite(
    "Cost with a price entity against a real Home Assistant",
    .serialized,
    .realHomeAssistant
)
struct CostWithHomeAssistantTests {
    let ha: HomeAssistantProcess
    let scratch: Scratch

    init() async throws {
        ha = try await .started()
        scratch = try Scratch()
    }

    /// The reference: Σ over consecutive readings of P₀ · Δt · price₀ (kWh × price per kWh):
    /// power and price as the step functions HA's states are.
    static func integral(_ readings: [(at: Date, watts: Double?, price: Double?)]) -> Double {
        var total = 0.0
        var previous: (at: Date, watts: Double, price: Double)?
        var price: Double?
        for reading in readings {
            price = reading.price ?? price
            guard let watts = reading.watts, let current = price else { continue }
            if let previous {
                let kWh = previous.watts * reading.at.timeIntervalSince(previous.at) / 3_600_000
                total += kWh * previous.price
            }
            previous = (reading.at, watts, current)
        }
        return total
    }

    @Test("A price that changes during the cycle: its cost is the integral of power × price, within a cent")
    func dynamicTariff() async throws {
        // A price high enough that a few seconds at 3 kW cost euros: a cent is then a test.
        func price(_ value: Double) async throws {
            let status = try await ha.setState("sensor.electricity_price", String(value),
                                               attributes: ["unit_of_measurement": "EUR/kWh", "device_class": "monetary"])
            #expect(status == 200 || status == 201)
        }
        try await ha.setWatts("washer_plug", 0.5)
        try await price(150)
        let database = scratch.path + "/history.sqlite"
        let path = scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(ha.url.absoluteString)", "token_file": "\(ha.tokenFile.path)"},
             "updates": "poll", "poll": {"active_seconds": 1, "idle_seconds": 1}, "discover": false,
             "price": {"entity": "sensor.electricity_price"},
             "appliances": [{"id": "plug_washer", "power_entity": "sensor.washer_plug_power",
                             "power_start_seconds": 0, "power_off_seconds": 4}]}
            """)
        // check names a TZ that is no zone instead of silently using UTC.
        let check = try CycletrackProcess.run(["check", "--config", path], environment: ["TZ": "Bogus/Zone"])
        #expect(check.stdout.contains("time zone") && check.stdout.contains("TZ=Bogus/Zone"), "\(check.stdout)")
        let service = try CycletrackProcess(["run", "--config", path, "--db", database], environment: ["CYCLETRACK_LOG": "debug"])
        #expect(service.waitForLog("event=tracking appliance=plug_washer", timeout: 60), "\(service.stderrSoFar)")
        try await ha.setWatts("washer_plug", 3000)
        #expect(service.waitForLog("event=cycle_started", timeout: 30), "\(service.stderrSoFar)")
        // Each reading held until the service has read it in two polls (1 s apart) after the
        // one that saw it: a few seconds each, the cost a few euros.
        try await service.waitForPolls(3)
        try await price(600)
        try await service.waitForPolls(3)
        try await ha.setWatts("washer_plug", 1200)
        try await service.waitForPolls(3)
        try await price(90)
        try await service.waitForPolls(3)
        try await ha.setWatts("washer_plug", 0.5)
        #expect(service.waitForLog("event=cycle_ended", timeout: 60), "\(service.stderrSoFar)")
        service.signal(SIGTERM)
        #expect(service.wait(timeout: 15).status == 0)

        let store = try HistoryStore(path: database, mode: .readOnly)
        let cycle = try #require(try store.cycles(matching: CycleFilter(applianceID: "plug_washer")).first)
        let cost = try #require(cycle.cost, "the cycle has a cost")
        #expect(cycle.currency == "EUR")
        // What HA showed from the start to the end: the row before the start is the state the
        // cycle started in (a plug's start is confirmed seconds after the power rose), and the
        // last row holds until the end.
        let observations = try store.observations(cycleID: cycle.id)
        var readings = observations.map { observation in
            (at: max(observation.at, cycle.startedAt), watts: observation.states[Role.power.rawValue].flatMap(Double.init),
             price: observation.states[Role.price.rawValue].flatMap(Double.init))
        }
        let end = try #require(cycle.endedAt)
        if let last = readings.last, last.at < end { readings.append((at: end, watts: last.watts, price: last.price)) }
        let prices = Set(readings.compactMap(\.price))
        #expect(prices.count >= 2, "the price changed while the cycle ran: \(prices.sorted())")
        let expected = Self.integral(readings)
        #expect(expected > 1, "a few euros: \(expected)")
        let shown = readings.map { "\(NumberText.fixed($0.at.timeIntervalSince(cycle.startedAt), decimals: 2)) s: \($0.watts.map { String($0) } ?? "-") W at \($0.price.map { String($0) } ?? "-")" }
        #expect(abs(cost - expected) < 0.01, "stored \(cost), integral \(expected), readings: \(shown.joined(separator: "; "))")
        let csv = try CycletrackProcess.run(["query", "--db", database, "--format", "csv"])
        #expect(csv.stdout.contains(",EUR"), "\(csv.stdout)")
    }
}
