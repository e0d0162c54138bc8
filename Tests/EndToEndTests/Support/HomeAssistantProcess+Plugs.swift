import Foundation

extension HomeAssistantProcess {
    /// Sets what a smart plug of the fixture draws: `input_number.<plug>_watts`, which its
    /// template power sensor (`sensor.<plug>_power`) shows. Throws when HA refuses.
    func setWatts(_ plug: String, _ value: Double) async throws {
        let (status, body) = try await callService("input_number", "set_value",
                                                   ["entity_id": "input_number.\(plug)_watts", "value": value])
        guard status == 200 else {
            throw HomeAssistantTestError("input_number.set_value \(plug) \(value): HTTP \(status): \(String(decoding: body, as: UTF8.self))")
        }
    }
}
