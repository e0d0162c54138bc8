@testable import CycleHistory
import FoundationEssentials
import TestSupport
import Testing

@Suite struct HistoryStatsTests {
    // By hand, for the dishwasher (cycles 1, 3, 4): 3 cycles, 2 finished; ended
    // durations 134 and 120 min: median 127 min, p90 = rank ⌈0.9 × 2⌉ = 2nd = 134 min;
    // estimate errors (end − first estimate) -4 and +6 min: median +1 min, either way 4 and 6:
    // median 5 min, and corrected the same (one other eco_50 cycle is too few to learn
    // from); pushes 12, 1, 10: median 10,
    // max 12; energy 0.82 and 1.10 kWh: median 0.96, total 1.92.
    // The washer: one aborted cycle of 45 min; its estimate does not count (not finished).
    @Test func byAppliance() throws {
        let fixture = try HistoryFixture()
        #expect(try fixture.stats([]) == """
            appliance   cycles  finished     median         p90  estimate error  abs error  corrected  pushes  max pushes    energy  total energy  cost  total cost
            dishwasher       3         2  2 h 7 min  2 h 14 min          +1 min      5 min      5 min      10          12  0.96 kWh      1.92 kWh
            washer           1         0     45 min      45 min                                             3           3

            """)
        #expect(try fixture.stats(["--format", "json"]) == """
            [
              {"appliance": "dishwasher", "cycles": 3, "finished": 2, "median_duration_seconds": 7620, "p90_duration_seconds": 8040, "median_estimate_error_seconds": 60, "median_abs_estimate_error_seconds": 300, "median_abs_corrected_error_seconds": 300, "median_pushes": 10, "max_pushes": 12, "median_energy_kwh": 0.96, "total_energy_kwh": 1.92, "median_cost": null, "total_cost": null, "currency": null},
              {"appliance": "washer", "cycles": 1, "finished": 0, "median_duration_seconds": 2700, "p90_duration_seconds": 2700, "median_estimate_error_seconds": null, "median_abs_estimate_error_seconds": null, "median_abs_corrected_error_seconds": null, "median_pushes": 3, "max_pushes": 3, "median_energy_kwh": null, "total_energy_kwh": null, "median_cost": null, "total_cost": null, "currency": null}
            ]

            """)
    }

    // Week 44 holds cycle 4 alone; week 45 holds 1, 2 and 3: ended durations 134 and
    // 45 min (median 89.5), p90 = 2nd of 2 = 134; estimate -4 (cycle 1 only);
    // pushes 12, 3, 1: median 3; energy 0.82 alone.
    @Test func byWeekAsCSV() throws {
        let fixture = try HistoryFixture()
        #expect(try fixture.stats(["--by", "week", "--format", "csv"]) == """
            week,cycles,finished,median_duration_seconds,p90_duration_seconds,median_estimate_error_seconds,median_abs_estimate_error_seconds,median_abs_corrected_error_seconds,median_pushes,max_pushes,median_energy_kwh,total_energy_kwh,median_cost,total_cost,currency
            2026-W44,1,1,7200,7200,360,360,360,10,10,1.1,1.1,,,
            2026-W45,3,1,5370,8040,-240,240,240,3,12,0.82,0.82,,,

            """)
    }

    @Test func byProgramWithFilters() throws {
        let fixture = try HistoryFixture()
        #expect(try fixture.stats(["--by", "program", "--since", "2026-11-02", "--format", "csv"]) == """
            program,program_name,appliance,cycles,finished,median_duration_seconds,p90_duration_seconds,median_estimate_error_seconds,median_abs_estimate_error_seconds,median_abs_corrected_error_seconds,median_pushes,max_pushes,median_energy_kwh,total_energy_kwh,median_cost,total_cost,currency
            eco_50,eco_50,dishwasher,1,1,8040,8040,-240,240,240,12,12,0.82,0.82,,,
            intensive_70,intensive_70,dishwasher,1,0,,,,,,1,1,,,,,
            "Cotton, ""Eco"" 40","Cotton, ""Eco"" 40",washer,1,0,2700,2700,,,,3,3,,,,,

            """)
        #expect(try fixture.stats(["--appliance", "oven"]) == "no cycles match\n")
        #expect(try fixture.stats(["--appliance", "washer", "--by", "program"]).contains(#"Cotton, "Eco" 40"#))
    }

    static let percentiles: [([Double], Double, Double)] = [
        ([1.0], 1.0, 1.0),
        ([3.0, 1.0], 2.0, 3.0),
        ([5.0, 1.0, 3.0], 3.0, 5.0),
        ((1...10).map(Double.init), 5.5, 9.0),  // rank ⌈9⌉ = 9
        ((1...11).map(Double.init), 6.0, 10.0),  // rank ⌈9.9⌉ = 10
        ((1...20).map(Double.init), 10.5, 18.0),
    ]

    @Test(arguments: percentiles)
    func medianAndNearestRank(values: [Double], median: Double, p90: Double) {
        #expect(CycleStatistics.median(values) == median)
        #expect(CycleStatistics.nearestRank(90, of: values) == p90)
        #expect(CycleStatistics.median(values.reversed()) == median)
        #expect(CycleStatistics.median(selecting: values) == median)
        #expect(CycleStatistics.median(selecting: values.reversed()) == median)
    }

    @Test func theMedianBySelectionIsTheMedianBySorting() {
        var seed: UInt64 = 7
        for count in 1...60 {
            let values = (0..<count).map { _ -> Double in
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double((seed >> 33) % 9)  // few distinct values: many ties
            }
            #expect(CycleStatistics.median(selecting: values) == CycleStatistics.median(values), "\(values)")
        }
        #expect(CycleStatistics.median(selecting: []) == nil)
    }

    @Test func emptyGroupsHaveNoNumbers() {
        #expect(CycleStatistics.median([]) == nil)
        #expect(CycleStatistics.nearestRank(90, of: []) == nil)
    }
}
