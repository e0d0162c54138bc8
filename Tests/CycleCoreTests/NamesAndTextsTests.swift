import Testing
@testable import CycleCore

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
