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

@Suite struct NamesAndTextsTests {
    @Test(arguments: [
        ("dishcare_dishwasher_program_eco_50", "Eco 50°C"),
        ("dishcare_dishwasher_program_auto_2", "Auto 45-65°C"),
        ("dishcare_dishwasher_program_night_wash", "Silence"),
        ("laundry_care_washer_program_cotton_eco_4060", "Eco 40-60"),
        ("laundry_care_dryer_program_time_cold", "Cold air (timed)"),
        ("cooking_oven_program_heating_mode_hot_air", "Hot air"),
        ("cooking_oven_program_heating_mode_top_bottom_heating", "Top/bottom heating"),
        ("consumer_products_coffee_maker_program_beverage_latte_macchiato", "Latte macchiato"),
        ("dishcare_dishwasher_program_super_quick_15", "Super quick 15"),
        ("laundry_care_washer_program_cotton_colour", "Cotton colour"),
        ("some_key", "Some key"),
    ])
    func readableProgramNames(key: String, name: String) {
        #expect(ProgramName.readable(key) == name)
    }

    @Test(arguments: [
        (Optional("dishcare_dishwasher_program_eco_50"), "Kitchen", "mdi:dishwasher"),
        ("laundry_care_washer_dryer_program_mix", "Bathroom", "mdi:washing-machine"),
        ("laundry_care_washer_program_cotton", "x", "mdi:washing-machine"),
        ("laundry_care_dryer_program_cotton", "x", "mdi:tumble-dryer"),
        ("cooking_oven_program_heating_mode_hot_air", "x", "mdi:stove"),
        ("consumer_products_coffee_maker_program_beverage_coffee", "x", "mdi:coffee-maker"),
        (nil, "Dishwasher", "mdi:dishwasher"),
        (nil, "Washing machine", "mdi:washing-machine"),
        (nil, "Tumble dryer", "mdi:tumble-dryer"),
        (nil, "Backofen", "mdi:stove"),
        (nil, "Coffee", "mdi:coffee-maker"),
        (nil, "Thing", "mdi:progress-clock"),
    ] as [(String?, String, String)])
    func iconGuesses(program: String?, name: String, icon: String) {
        #expect(ApplianceIcon.guess(programKey: program, name: name) == icon)
    }

    @Test(arguments: [
        (8040.0, "2 h 14 min"), (7200, "2 h"), (7259, "2 h"), (2700, "45 min"), (2759.9, "45 min"), (0, "0 min"),
        (-5, "0 min"),
    ])
    func durations(seconds: Double, text: String) {
        #expect(DurationText.format(seconds: seconds, texts: Texts()) == text)
    }

    @Test func readableApplianceNames() {
        #expect(ApplianceName.readable(id: "dish_washer") == "Dish washer")
        #expect(ApplianceName.readable(id: "dishwasher") == "Dishwasher")
    }

    @Test func textValidationNamesTheTextAndThePlaceholder() {
        #expect(Texts().validate().isEmpty)
        var texts = Texts()
        texts.started = "{nmae} started"
        texts.percentComplete = "{percent}% of {program}"
        #expect(texts.validate() == [
            "texts.started: unknown placeholder {nmae} (expected {name})",
            "texts.percent_complete: unknown placeholder {program} (expected {name}, {percent})",
        ])
        #expect(Set(Texts.placeholders.keys) == Set(Texts().entries.map(\.key)))
        #expect(Texts.placeholders["done_in"] == ["name", "program", "duration"])
    }

    @Test func renderingLeavesUnknownBracesAlone() {
        #expect(Texts.render("{name} {x} {", ["name": "Oven"]) == "Oven {x} {")
    }
}
