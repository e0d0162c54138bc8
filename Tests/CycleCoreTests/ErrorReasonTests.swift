import FoundationEssentials
import Testing
@testable import CycleCore

/// docs/CYCLES.md, "Errors": the appliance's own reason for an error, from its integration's
/// error event (LG ThinQ's `event` entity, role `error_reason`), said in people's words when
/// the event fired during the cycle; else the door; else plain "Error".
@Suite struct ErrorReasonTests {
    @Test(arguments: [
        ("water_supply_error 2026-11-02T08:20:00+00:00", "water_supply_error", "2026-11-02T08:20:00Z"),
        ("door_open_error 2026-11-02T08:20:00.123456+00:00", "door_open_error", "2026-11-02T08:20:00.123456Z"),
        // No event yet, no time, an event that says nothing: no reason.
        ("unknown", nil, nil), ("unavailable", nil, nil), ("", nil, nil),
        ("2026-11-02T08:20:00+00:00", nil, nil), ("water_supply_error", nil, nil),
        ("water_supply_error yesterday", nil, nil), ("unknown_error 2026-11-02T08:20:00+00:00", nil, nil),
    ] as [(String, String?, String?)])
    func readsTheRawText(raw: String, type: String?, at: String?) {
        let event = ErrorEvent(raw: raw)
        #expect(event?.type == type)
        #expect(event?.at == at.flatMap(ISOTime.parse))
    }

    @Test(arguments: [
        ("door_open_error", "door open", "Tür offen"),
        ("water_supply_error", "water supply", "Wasserzulauf"),
        ("drainmotor_error", "drain", "Abpumpen"),
        ("filter_clogging_error", "filter", "Filter"),
        ("door_lock_error", "door does not lock", "Tür verriegelt nicht"),
        ("high_power_supply_error", "power supply", "Stromversorgung"),
        ("out_of_balance_error", "unbalanced load", "Unwucht"),
        // No table entry: the key's words, in either language.
        ("heater_circuit_error", "heater circuit", "heater circuit"),
        ("need_something", "need something", "need something"),
    ])
    func saysTheReasonInPeoplesWords(type: String, english: String, german: String) {
        let event = ErrorEvent(type: type, at: zero)
        #expect(event.words(Texts()) == english)
        #expect(event.words(Texts.german) == german)
        // A person's own texts over the German set keep its words.
        #expect(event.words(Texts.german.replacing(["error_because": "Störung: {reason}"])) == german)
        #expect(event.englishWords == english)
    }

    /// An LG washer's trace, replayed as `cycletrack replay` does: running from minute 2, an
    /// error at minute 20 with the reason entity's `event` (nil: `unknown`, never fired), the
    /// door as given; then the note's message and reason.
    @Test(arguments: [
        // The event of this error: its words.
        ("water_supply_error", 20.0, nil, false, "Error: water supply", "anomaly: error (water supply)"),
        ("filter_clogging_error", 19.5, nil, false, "Error: filter", "anomaly: error (filter)"),
        ("heater_circuit_error", 20.0, nil, false, "Error: heater circuit", "anomaly: error (heater circuit)"),
        ("water_supply_error", 20.0, nil, true, "Fehler: Wasserzulauf", "anomaly: error (water supply)"),
        // The event before the cycle began (an old error kept by the entity): not this error's.
        ("water_supply_error", 1.0, nil, false, "Error", "anomaly: error"),
        ("water_supply_error", 1.0, "open", false, "Error: door open", "anomaly: error (door open)"),
        // The event over the door.
        ("drainmotor_error", 20.0, "open", false, "Error: drain", "anomaly: error (drain)"),
        (nil, 0.0, nil, false, "Error", "anomaly: error"),
    ] as [(String?, Double, String?, Bool, String, String)])
    func anLGWasherSaysItsOwnReason(event: String?, firedAt: Double, door: String?, german: Bool,
                                     message: String, reason: String) throws {
        let fired = event.map { "\($0) \(ISOTime.format(minute(firedAt)))" } ?? "unknown"
        func line(_ at: Double, _ state: String, _ reasonText: String) -> String {
            let doorText = door.map { #", "door": "\#($0)""# } ?? ""
            return #"{"at": "\#(ISOTime.format(minute(at)))", "states": {"operation_state": "\#(state)", "#
                + #""program": "cotton", "error_reason": "\#(reasonText)"\#(at >= 20 ? doorText : "")}}"#
        }
        let old = firedAt < 2 ? fired : "unknown"
        let text = [line(0, "initial", old), line(2, "washing", old), line(10, "washing", old),
                    line(20, "error", fired), line(30, "washing", fired)]
        var settings = ApplianceSettings(id: "washer", name: "Washer")
        settings.profile = .lgThinQ
        if german { settings.texts = Texts.german }
        let result = try Replay.run(settings: settings, lines: text.enumerated().map { ($0.offset + 1, $0.element) })
        let notes = result.calls.filter { $0.reason.hasPrefix("anomaly: ") }
        #expect(notes.count == 1)
        let note = try #require(notes.first)
        #expect(note.kind == .progress)
        #expect(note.message == message)
        #expect(note.reason == reason)
        #expect(result.warnings.isEmpty)
    }
}
