import Testing
@testable import CycleCore

@Suite struct ProgressStepsTests {
    @Test func defaultSteps() {
        let steps = ProgressSteps.default.steps
        #expect(steps.coarse == [10, 20, 30, 40, 50, 60, 70, 80])
        #expect(steps.fine == [90, 92, 94, 96, 98])
        #expect(ProgressSteps.default.thinned(toFit: 15) == ([10, 20, 30, 40, 50, 60, 70, 80, 90, 92, 94, 96, 98], []))
    }

    @Test(arguments: [
        (ProgressSteps.regular(step: 25, fineFrom: 80, fineStep: 5), [25, 50, 75], [80, 85, 90, 95]),
        (.regular(step: 10, fineFrom: 100, fineStep: 2), [10, 20, 30, 40, 50, 60, 70, 80, 90], []),
        (.at([90, 25, 50, 50, 0, 100, 75]), [25, 50, 75, 90], []),
    ])
    func stepsOfATuning(tuning: ProgressSteps, coarse: [Int], fine: [Int]) {
        #expect(tuning.steps.coarse == coarse)
        #expect(tuning.steps.fine == fine)
    }

    @Test(arguments: [
        // Default steps into 10 slots: all 5 fine, and every 2nd coarse step counting down from 80.
        (ProgressSteps.default, 10, [20, 40, 60, 80, 90, 92, 94, 96, 98], [10, 30, 50, 70]),
        (.default, 7, [40, 80, 90, 92, 94, 96, 98], [10, 20, 30, 50, 60, 70]),
        (.default, 5, [90, 92, 94, 96, 98], [10, 20, 30, 40, 50, 60, 70, 80]),
        // The fine steps alone don't fit: thinned the same way, every coarse step dropped.
        (.default, 3, [90, 94, 98], [10, 20, 30, 40, 50, 60, 70, 80, 92, 96]),
        (.default, 2, [92, 98], [10, 20, 30, 40, 50, 60, 70, 80, 90, 94, 96]),
        (.default, 0, [], [10, 20, 30, 40, 50, 60, 70, 80, 90, 92, 94, 96, 98]),
        // An `at` list is all coarse.
        (.at([20, 40, 60, 80, 90, 95]), 3, [40, 80, 95], [20, 60, 90]),
        (.at([20, 40, 60, 80, 90, 95]), 4, [40, 80, 95], [20, 60, 90]),
        (.at([20, 40, 60, 80, 90, 95]), 6, [20, 40, 60, 80, 90, 95], []),
    ])
    func thinning(tuning: ProgressSteps, slots: Int, kept: [Int], dropped: [Int]) {
        let result = tuning.thinned(toFit: slots)
        #expect(result.kept == kept)
        #expect(result.dropped == dropped)
        #expect(result.kept.count <= max(slots, 0))
    }

    @Test func validation() {
        #expect(ProgressSteps.default.validate().isEmpty)
        #expect(ProgressSteps.regular(step: 0, fineFrom: 90, fineStep: 2).validate()
            == ["progress_steps.step: expected 1 to 99, found 0"])
        #expect(ProgressSteps.regular(step: 10, fineFrom: 120, fineStep: -1).validate().count == 2)
        #expect(ProgressSteps.at([]).validate() == ["progress_steps.at: expected at least one step, found an empty list"])
        #expect(ProgressSteps.at([50, 100]).validate() == ["progress_steps.at: expected steps from 1 to 99, found 100"])
    }
}
