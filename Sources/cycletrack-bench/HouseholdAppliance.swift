import CycleCore

/// One of the ten appliances of the benchmark's household: the service tracks them
/// in the footprint and start-up phases, and the history database is made of their cycles.
struct HouseholdAppliance: Sendable {
    var id: String
    var name: String
    var programs: [String]
    var reportsProgress = true
    var reportsFinishTime = true
    var hasTemperature = false
    /// The corpus scenarios whose replays stand for its cycles in the history.
    var scenarios: [String]

    /// The entity ids the configuration maps, by role.
    var entities: [Role: String] {
        var map: [Role: String] = [
            .operationState: "sensor.\(id)_operation_state",
            .program: "select.\(id)_active_program",
            .door: "sensor.\(id)_door",
        ]
        if reportsProgress { map[.progress] = "sensor.\(id)_program_progress" }
        if reportsFinishTime { map[.finishTime] = "sensor.\(id)_program_finish_time" }
        if hasTemperature { map[.temperature] = "sensor.\(id)_current_oven_cavity_temperature" }
        return map
    }

    static let all: [HouseholdAppliance] = [
        HouseholdAppliance(id: "dishwasher", name: "Dishwasher",
                           programs: ["dishcare_dishwasher_program_eco_50", "dishcare_dishwasher_program_auto_2"],
                           scenarios: ["dishwasher-corrections", "dishwasher-no-finish-time", "ended-early"]),
        HouseholdAppliance(id: "dishwasher_upstairs", name: "Dishwasher upstairs",
                           programs: ["dishcare_dishwasher_program_quick_45", "dishcare_dishwasher_program_intensiv_70"],
                           scenarios: ["dishwasher-corrections", "ended-early"]),
        HouseholdAppliance(id: "washer", name: "Washer",
                           programs: ["laundry_care_washer_program_cotton", "laundry_care_washer_program_easy_care"],
                           scenarios: ["washer-pauses", "washer-blips", "washer-wobble", "chaos"]),
        HouseholdAppliance(id: "washer_basement", name: "Washer basement",
                           programs: ["laundry_care_washer_program_mix"],
                           scenarios: ["washer-pauses", "washer-wobble"]),
        HouseholdAppliance(id: "dryer", name: "Dryer",
                           programs: ["laundry_care_dryer_program_cotton", "laundry_care_dryer_program_synthetic"],
                           scenarios: ["dryer-slow", "dryer-jump"]),
        HouseholdAppliance(id: "washer_dryer", name: "Washer dryer",
                           programs: ["laundry_care_washer_dryer_program_mix"], reportsProgress: false,
                           scenarios: ["washer-dryer-no-progress"]),
        HouseholdAppliance(id: "oven", name: "Oven", programs: ["cooking_oven_program_heating_mode_hot_air"],
                           reportsProgress: false, reportsFinishTime: false, hasTemperature: true,
                           scenarios: ["oven-no-progress"]),
        HouseholdAppliance(id: "steam_oven", name: "Steam oven", programs: ["cooking_oven_program_heating_mode_pizza_setting"],
                           reportsProgress: false, reportsFinishTime: false, hasTemperature: true,
                           scenarios: ["oven-no-progress"]),
        HouseholdAppliance(id: "coffee_maker", name: "Coffee maker",
                           programs: ["consumer_products_coffee_maker_program_beverage_cappuccino"],
                           scenarios: ["coffee-fast"]),
        HouseholdAppliance(id: "coffee_maker_office", name: "Coffee maker office",
                           programs: ["consumer_products_coffee_maker_program_beverage_espresso"],
                           scenarios: ["coffee-fast"]),
    ]
}
