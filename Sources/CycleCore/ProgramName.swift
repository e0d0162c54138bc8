/// Readable names of Home Connect program keys. HA's REST API gives the key
/// (`dishcare_dishwasher_program_eco_50`), not its translation, so common programs
/// come from this table and the rest from a tidy version of the key.
public enum ProgramName {
    /// "dishcare_dishwasher_program_eco_50" → "Eco 50°C";
    /// "..._program_super_quick_15" → "Super quick 15".
    public static func readable(_ key: String) -> String {
        if let known = table[key] { return known }
        let tail: Substring
        if let range = key.ranges(of: "_program_").last {
            tail = key[range.upperBound...]
        } else {
            tail = Substring(key)
        }
        let words = tail.split(separator: "_", omittingEmptySubsequences: true).joined(separator: " ")
        guard let first = words.first else { return key }
        return first.uppercased() + words.dropFirst()
    }

    private static let table: [String: String] = {
        var table: [String: String] = [:]
        for (prefix, programs) in families {
            for (suffix, name) in programs { table[prefix + "_program_" + suffix] = name }
        }
        return table
    }()

    private static let families: [(String, [String: String])] = [
        ("dishcare_dishwasher", [
            "pre_rinse": "Pre-rinse", "auto_1": "Auto 35-45°C", "auto_2": "Auto 45-65°C", "auto_3": "Auto 65-75°C",
            "eco_50": "Eco 50°C", "quick_45": "Speed 45°C", "quick_65": "Speed 65°C", "intensiv_70": "Intensive 70°C",
            "intensiv_45": "Intensive 45°C", "normal_45": "Normal 45°C", "normal_65": "Normal 65°C",
            "glas_40": "Glass 40°C", "glass_care": "Glass care", "night_wash": "Silence", "kurz_60": "Short 60°C",
            "super_60": "Super 60°C", "auto_half_load": "Auto half load", "intensiv_power": "Intensive power",
            "magic_daily": "Magic daily", "express_sparkle_65": "Express sparkle 65°C", "machine_care": "Machine care",
            "steam_fresh": "Steam fresh", "maximum_cleaning": "Maximum cleaning", "mixed_load": "Mixed load",
        ]),
        ("laundry_care_washer", [
            "cotton": "Cotton", "cotton_cotton_eco": "Cotton eco", "cotton_eco_4060": "Eco 40-60",
            "cotton_eco4060": "Eco 40-60", "easy_care": "Easy care", "mix": "Mix", "mix_night_wash": "Night wash",
            "delicates_silk": "Delicates/silk", "wool": "Wool", "sensitive": "Sensitive", "auto_30": "Auto 30°C",
            "auto_40": "Auto 40°C", "auto_60": "Auto 60°C", "chiffon": "Chiffon", "curtains": "Curtains",
            "dark_wash": "Dark wash", "dessous": "Lingerie", "monsoon": "Monsoon", "outdoor": "Outdoor",
            "plush_toy": "Plush toys", "shirts_blouses": "Shirts/blouses", "sport_fitness": "Sport/fitness",
            "towels": "Towels", "water_proof": "Water proof", "power_speed_59": "Power speed 59'",
            "super_153045_super_15": "Super 15'", "super_153045_super_1530": "Super 15'/30'",
            "rinse_spin_drain": "Rinse/spin/drain", "rinse_rinse_spin_drain": "Rinse/spin/drain",
            "spin_spin_drain": "Spin/drain", "drum_clean": "Drum clean", "hygiene_plus": "Hygiene plus",
        ]),
        ("laundry_care_washer_dryer", [
            "cotton": "Cotton", "cotton_eco_4060": "Eco 40-60", "mix": "Mix", "easy_care": "Easy care",
            "wash_and_dry_60": "Wash & dry 60'", "wash_and_dry_90": "Wash & dry 90'",
        ]),
        ("laundry_care_dryer", [
            "cotton": "Cotton", "synthetic": "Synthetics", "mix": "Mix", "blankets": "Blankets",
            "business_shirts": "Business shirts", "down_feathers": "Down/feathers", "hygiene": "Hygiene",
            "jeans": "Jeans", "outdoor": "Outdoor", "synthetic_refresh": "Synthetics refresh", "towels": "Towels",
            "delicates": "Delicates", "super_40": "Super 40'", "shirts_15": "Shirts 15'", "pillow": "Pillow",
            "anti_shrink": "Anti shrink", "time_cold": "Cold air (timed)", "time_warm": "Warm air (timed)",
            "dessous": "Lingerie", "wool_finish": "Wool finish", "in_basket": "Basket",
        ]),
        ("cooking_oven", [
            "heating_mode_hot_air": "Hot air", "heating_mode_hot_air_eco": "Hot air eco",
            "heating_mode_hot_air_grilling": "Hot air grilling", "heating_mode_top_bottom_heating": "Top/bottom heating",
            "heating_mode_top_bottom_heating_eco": "Top/bottom heating eco",
            "heating_mode_bottom_heating": "Bottom heating", "heating_mode_pizza_setting": "Pizza setting",
            "heating_mode_slow_cook": "Slow cook", "heating_mode_intensive_heat": "Intensive heat",
            "heating_mode_keep_warm": "Keep warm", "heating_mode_preheat_ovenware": "Preheat ovenware",
            "heating_mode_frozen_heatup_special": "Frozen food", "heating_mode_desiccation": "Drying",
            "heating_mode_defrost": "Defrost", "heating_mode_proof": "Proof", "heating_mode_pre_heating": "Pre-heating",
            "heating_mode_grill_large_area": "Grill, large area", "heating_mode_grill_small_area": "Grill, small area",
            "cleaning_pyrolysis": "Self-cleaning", "microwave_90_watt": "Microwave 90 W",
            "microwave_180_watt": "Microwave 180 W", "microwave_360_watt": "Microwave 360 W",
            "microwave_600_watt": "Microwave 600 W", "microwave_900_watt": "Microwave 900 W",
            "microwave_1000_watt": "Microwave 1000 W", "microwave_max": "Microwave max",
        ]),
        ("consumer_products_coffee_maker", [
            "beverage_ristretto": "Ristretto", "beverage_espresso": "Espresso",
            "beverage_espresso_doppio": "Espresso doppio", "beverage_coffee": "Coffee",
            "beverage_x_l_coffee": "XL coffee", "beverage_caffe_grande": "Caffè grande",
            "beverage_espresso_macchiato": "Espresso macchiato", "beverage_cappuccino": "Cappuccino",
            "beverage_latte_macchiato": "Latte macchiato", "beverage_caffe_latte": "Caffè latte",
            "beverage_milk_froth": "Milk froth", "beverage_warm_milk": "Warm milk", "beverage_hot_water": "Hot water",
            "beverage_americano": "Americano", "beverage_flat_white": "Flat white",
        ]),
    ]
}
