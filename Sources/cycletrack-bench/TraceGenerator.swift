import CycleCore
import FoundationEssentials

/// Makes the generated part of the corpus: for each scenario, `perScenario` traces of
/// one cycle each, varied by a seeded generator (the same seed gives the same traces).
enum TraceGenerator {
    /// A kind of cycle real appliances produce (docs/CYCLES.md, "What real appliances do").
    struct Scenario {
        var name: String
        var applianceID: String
        var applianceName: String
        /// `index` counts the traces of the scenario from 0.
        var make: @Sendable (_ index: Int, _ start: Date, _ rng: inout SplitMix64) -> CycleSimulation
    }

    /// 2026-11-02T08:00:00Z: the example traces' day.
    static let epoch = Date(timeIntervalSince1970: 1_793_606_400)

    static func corpus(seed: UInt64, perScenario: Int = 5) -> [BenchTrace] {
        var rng = SplitMix64(seed: seed)
        var traces: [BenchTrace] = []
        for scenario in scenarios {
            for index in 0..<perScenario {
                var local = rng.split()
                let start = epoch.addingTimeInterval(Double(index) * 86_400 + local.double(0...3600))
                let simulation = scenario.make(index, start, &local)
                traces.append(BenchTrace(
                    name: "\(scenario.name)-\(index + 1)", scenario: scenario.name,
                    settings: ApplianceSettings(id: scenario.applianceID, name: scenario.applianceName),
                    observations: simulation.render(using: &local), expectedCycles: 1))
            }
        }
        return traces
    }

    /// Finish-time corrections of ±`minutes` at random points of the run.
    private static func corrections(_ count: Int, minutes: ClosedRange<Double>, _ rng: inout SplitMix64) -> [CycleSimulation.Window] {
        (0..<count).map { _ in
            let size = rng.double(minutes) * 60
            return CycleSimulation.Window(fraction: rng.double(0.05...0.9), seconds: rng.chance(0.5) ? size : -size)
        }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "coffee-fast", applianceID: "coffee_maker", applianceName: "Coffee maker") { _, start, rng in
            var cycle = CycleSimulation(
                program: rng.pick(["consumer_products_coffee_maker_program_beverage_cappuccino",
                                   "consumer_products_coffee_maker_program_beverage_espresso",
                                   "consumer_products_coffee_maker_program_beverage_latte_macchiato"]),
                start: start, runSeconds: rng.double(40...80), sampleEvery: 0.12...0.3)
            cycle.eventEvery = 0
            cycle.stuckSeconds = rng.double(2...6)
            cycle.stuckRemaining = 3
            cycle.ending = .finished(linger: rng.double(2...8))
            cycle.idleSeconds = 30
            return cycle
        },
        Scenario(name: "dryer-slow", applianceID: "dryer", applianceName: "Dryer") { _, start, rng in
            var cycle = CycleSimulation(
                program: rng.pick(["laundry_care_dryer_program_cotton", "laundry_care_dryer_program_synthetic"]),
                start: start, runSeconds: rng.double(7_200...10_800), sampleEvery: 55...65)
            cycle.stuckSeconds = rng.double(120...300)
            cycle.ending = rng.chance(0.5) ? .ready : .finished(linger: rng.double(600...3600))
            return cycle
        },
        Scenario(name: "dishwasher-corrections", applianceID: "dishwasher", applianceName: "Dishwasher") { _, start, rng in
            var cycle = CycleSimulation(
                program: rng.pick(["dishcare_dishwasher_program_eco_50", "dishcare_dishwasher_program_auto_2"]),
                start: start, runSeconds: rng.double(9_000...12_600), sampleEvery: 30...90)
            cycle.corrections = corrections(rng.int(3...6), minutes: 3...25, &rng)
            cycle.delayedStartSeconds = rng.chance(0.5) ? rng.double(1_800...7_200) : 0
            cycle.stuckSeconds = rng.double(60...180)
            cycle.ending = .finished(linger: rng.double(600...3600))
            return cycle
        },
        Scenario(name: "washer-pauses", applianceID: "washer", applianceName: "Washer") { index, start, rng in
            var cycle = CycleSimulation(program: "laundry_care_washer_program_cotton", start: start,
                                        runSeconds: rng.double(5_400...9_000), sampleEvery: 8...12)
            cycle.pauses = (0..<rng.int(1...3)).map { number in
                CycleSimulation.Pause(fraction: rng.double(0.1...0.85), seconds: rng.double(60...600),
                                      actionRequired: number == 0 && index % 2 == 1)
            }
            cycle.ending = .finished(linger: rng.double(300...1800))
            return cycle
        },
        Scenario(name: "washer-blips", applianceID: "washer", applianceName: "Washer") { _, start, rng in
            var cycle = CycleSimulation(program: "laundry_care_washer_program_mix", start: start,
                                        runSeconds: rng.double(5_400...9_000), sampleEvery: 8...12)
            cycle.blips = (0..<rng.int(2...4)).map { _ in
                CycleSimulation.Window(fraction: rng.double(0.05...0.95), seconds: rng.double(20...300))
            }
            cycle.ending = rng.chance(0.5) ? .unavailableThenReady(seconds: rng.double(30...240)) : .finished(linger: 600)
            return cycle
        },
        Scenario(name: "oven-no-progress", applianceID: "oven", applianceName: "Oven") { _, start, rng in
            var cycle = CycleSimulation(program: "cooking_oven_program_heating_mode_hot_air", start: start,
                                        runSeconds: rng.double(2_400...7_200), sampleEvery: 55...65)
            cycle.reportsProgress = false
            cycle.reportsFinishTime = false
            cycle.temperature = (from: rng.double(18...26), to: rng.pick([160, 180, 200, 220]))
            cycle.ending = .ready
            return cycle
        },
        Scenario(name: "dishwasher-no-finish-time", applianceID: "dishwasher", applianceName: "Dishwasher") { _, start, rng in
            var cycle = CycleSimulation(program: "dishcare_dishwasher_program_intensiv_70", start: start,
                                        runSeconds: rng.double(5_400...9_000), sampleEvery: 55...65)
            cycle.reportsFinishTime = false
            cycle.ending = .finished(linger: rng.double(600...1800))
            return cycle
        },
        Scenario(name: "washer-dryer-no-progress", applianceID: "washer_dryer", applianceName: "Washer dryer") { _, start, rng in
            var cycle = CycleSimulation(program: "laundry_care_washer_dryer_program_mix", start: start,
                                        runSeconds: rng.double(10_800...14_400), sampleEvery: 55...65)
            cycle.reportsProgress = false
            cycle.corrections = corrections(rng.int(1...3), minutes: 5...30, &rng)
            cycle.ending = .finished(linger: rng.double(300...900))
            return cycle
        },
        Scenario(name: "dryer-jump", applianceID: "dryer", applianceName: "Dryer") { _, start, rng in
            var cycle = CycleSimulation(program: "laundry_care_dryer_program_cotton", start: start,
                                        runSeconds: rng.double(3_600...7_200), sampleEvery: 55...65)
            cycle.jumpsToEnd = true
            cycle.corrections = corrections(1, minutes: 10...20, &rng)
            cycle.ending = .ready
            return cycle
        },
        Scenario(name: "washer-wobble", applianceID: "washer", applianceName: "Washer") { _, start, rng in
            var cycle = CycleSimulation(program: "laundry_care_washer_program_easy_care", start: start,
                                        runSeconds: rng.double(4_800...7_200), sampleEvery: 20...40)
            cycle.wobble = 0.15
            cycle.stuckSeconds = rng.double(120...240)
            cycle.ending = .finished(linger: rng.double(300...1200))
            return cycle
        },
        Scenario(name: "chaos", applianceID: "washer", applianceName: "Washer") { index, start, rng in
            var cycle = CycleSimulation(program: "laundry_care_washer_program_cotton", start: start,
                                        runSeconds: rng.double(5_400...10_800), sampleEvery: 5...20)
            cycle.eventEvery = rng.double(30...60)
            cycle.corrections = corrections(rng.int(2...5), minutes: 2...20, &rng)
            cycle.pauses = (0..<rng.int(1...3)).map { _ in
                CycleSimulation.Pause(fraction: rng.double(0.1...0.9), seconds: rng.double(30...900),
                                      actionRequired: rng.chance(0.3))
            }
            cycle.blips = (0..<rng.int(1...3)).map { _ in
                CycleSimulation.Window(fraction: rng.double(0.05...0.95), seconds: rng.double(10...600))
            }
            cycle.wobble = 0.1
            cycle.stuckSeconds = rng.double(60...300)
            cycle.ending = index % 2 == 0 ? .ready : .finished(linger: rng.double(60...1200))
            return cycle
        },
        Scenario(name: "ended-early", applianceID: "dishwasher", applianceName: "Dishwasher") { index, start, rng in
            var cycle = CycleSimulation(program: "dishcare_dishwasher_program_quick_45", start: start,
                                        runSeconds: rng.double(2_700...5_400), sampleEvery: 20...60)
            let fraction = rng.double(0.2...0.8)
            switch index % 3 {
            case 0: cycle.ending = .aborted(fraction: fraction)
            case 1: cycle.ending = .failed(fraction: fraction)
            default: cycle.ending = .lost(fraction: fraction, seconds: rng.double(6.2...7) * 3600)
            }
            return cycle
        },
    ]
}
