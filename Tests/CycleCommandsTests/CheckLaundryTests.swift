import CycleCore
import Testing
@testable import CycleCommands

/// `check`'s rows for the washer and the dryer: the links the household will make, and a
/// `dryer` setting that links nothing because it names no appliance followed.
@Suite struct CheckLaundryTests {
    private func appliance(_ id: String, _ name: String, dryer: String = LaundryLink.automatic) -> ApplianceSettings {
        var settings = ApplianceSettings(id: id, name: name)
        settings.dryer = dryer
        return settings
    }

    @Test func theOneDryerIsLinkedAutomaticallyAndSaidSo() {
        let rows = CheckCommand.laundryRows([appliance("washer", "Washer"), appliance("dryer", "Dryer"), appliance("dishwasher", "Dishwasher")])
        #expect(rows == [CheckCommand.Row(check: "laundry", ok: true, detail:
            "washer → dryer (dryer auto: the household's one dryer): its end and reminders say to move the laundry to Dryer")])
    }

    @Test func aDryerSettingNamingNoFollowedApplianceFailsNamingTheSettingAndTheAppliances() {
        let rows = CheckCommand.laundryRows([appliance("washer", "Washer", dryer: "drier"), appliance("dryer", "Dryer")])
        #expect(rows == [CheckCommand.Row(check: "  washer.dryer", ok: false, detail:
            "\"drier\" is not an appliance cycletrack follows (dryer, washer): no dryer is linked")])
        let itself = CheckCommand.laundryRows([appliance("washer", "Washer", dryer: "washer")])
        #expect(itself.map(\.check) == ["  washer.dryer"])
        #expect(itself.first?.ok == false)
    }

    @Test func offAndAutoWithoutADryerSayNothing() {
        #expect(CheckCommand.laundryRows([appliance("washer", "Washer", dryer: LaundryLink.off), appliance("dryer", "Dryer")]).isEmpty)
        #expect(CheckCommand.laundryRows([appliance("washer", "Washer")]).isEmpty)
    }
}
