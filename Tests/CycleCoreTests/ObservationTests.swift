import FoundationEssentials
import Testing
@testable import CycleCore

@Suite struct ObservationTests {
    @Test(arguments: [
        ("run", OperationReading.known(.run)),
        ("actionrequired", .known(.actionrequired)),
        ("delayedstart", .known(.delayedstart)),
        ("unavailable", .unavailable),
        ("unknown", .unavailable),
        ("", .unavailable),
        ("spinning", .unrecognised("spinning")),
    ])
    func operationState(text: String, expected: OperationReading) {
        #expect(Observation(at: zero, raw: [.operationState: text]).operation == expected)
    }

    @Test func missingOperationStateIsUnavailable() {
        #expect(Observation(at: zero, raw: [:]).operation == .unavailable)
    }

    @Test(arguments: [
        ("42", 42), ("42.7", 42), ("0", 0), ("100", 100), ("99.99", 99),
        ("unavailable", nil), ("unknown", nil), ("abc", nil), ("-3", nil), ("140", nil), ("nan", nil), ("", nil),
    ] as [(String, Int?)])
    func progress(text: String, expected: Int?) {
        #expect(Observation(at: zero, raw: [.progress: text]).progress == expected)
    }

    @Test(arguments: [
        ("2026-11-29T13:05:12+00:00", 1_795_957_512.0),
        ("2026-11-29T13:05:12Z", 1_795_957_512.0),
        ("2026-11-29T14:05:12+01:00", 1_795_957_512.0),
        ("2026-11-29T13:05:12.250+00:00", 1_795_957_512.25),
        ("2026-11-29T13:05:12.123456+00:00", 1_795_957_512.123456),
        ("2026-11-29 13:05:12+00:00", 1_795_957_512.0),
    ])
    func finishTime(text: String, unix: Double) throws {
        let parsed = try #require(Observation(at: zero, raw: [.finishTime: text]).finishTime)
        #expect(abs(parsed.timeIntervalSince1970 - unix) < 0.000_001)
    }

    @Test(arguments: [
        "unavailable", "unknown", "2026-11-29T13:05:12", "2026-11-29", "2026-13-29T13:05:12Z",
        "2026-02-30T13:05:12Z", "2026-11-29T25:05:12Z", "yesterday", "2026-11-29T13:05:12+00:00x",
        "2026-11-29T13:05:12.Z",
    ])
    func invalidFinishTime(text: String) {
        #expect(Observation(at: zero, raw: [.finishTime: text]).finishTime == nil)
    }

    @Test(arguments: [(eco50, eco50), ("unknown", nil), ("unavailable", nil), ("", nil)] as [(String, String?)])
    func program(text: String, expected: String?) {
        #expect(Observation(at: zero, raw: [.program: text]).program == expected)
    }

    @Test func energyInWattHoursIsConvertedToKilowattHours() {
        let wattHours = Observation(at: zero, raw: [.energy: "1500"], units: [.energy: "Wh"])
        let kilowattHours = Observation(at: zero, raw: [.energy: "1.5"], units: [.energy: "kWh"])
        #expect(wattHours.energy == 1.5)
        #expect(kilowattHours.energy == 1.5)
    }

    @Test func numbersUnitsAndDoor() {
        let observation = Observation(
            at: zero,
            raw: [.temperature: "180.5", .power: "2100", .door: "open", .energy: "unavailable"],
            units: [.temperature: "°F"]
        )
        #expect(observation.temperature == 180.5)
        #expect(observation.temperatureUnit == "°F")
        #expect(observation.power == 2100)
        #expect(observation.door == "open")
        #expect(observation.energy == nil)
        #expect(Observation(at: zero, raw: [.temperature: "hot"]).temperature == nil)
    }

    @Test(arguments: [
        (1_793_606_400.0, "2026-11-02T08:00:00Z"),
        (1_793_606_400.25, "2026-11-02T08:00:00.250Z"),
        (951_782_400.0, "2000-02-29T00:00:00Z"),
        (0.0, "1970-01-01T00:00:00Z"),
    ])
    func isoFormat(unix: Double, text: String) {
        let date = Date(timeIntervalSince1970: unix)
        #expect(ISOTime.format(date) == text)
        #expect(ISOTime.parse(text) == date)
    }
}
