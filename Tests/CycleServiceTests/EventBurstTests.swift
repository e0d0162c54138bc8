import FoundationEssentials
import Testing
@testable import CycleService

/// When a burst of HA's changes ends, as a table: arrivals (seconds, whether they
/// complete the appliances touched), then when the burst is due.
@Suite struct EventBurstTests {
    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000 + seconds) }

    @Test(arguments: [
        // One change: due when HA has been quiet for 20 ms.
        ([(0.0, false)], 0.020),
        // Entity by entity, 10 ms apart: due 20 ms after the last.
        ([(0.0, false), (0.010, false), (0.020, false)], 0.040),
        // A chatty appliance: never quiet for 20 ms, due 250 ms after the first change.
        ((0..<30).map { (Double($0) * 0.015, false) }, 0.250),
        // Every entity of the appliance has arrived: due at once.
        ([(0.0, false), (0.005, true)], 0.005),
        // ... unless a change to another appliance came after, leaving it incomplete.
        ([(0.0, false), (0.005, true), (0.008, false)], 0.028),
    ] as [([(Double, Bool)], Double)])
    func aBurstEndsWhenHomeAssistantGoesQuiet(arrivals: [(Double, Bool)], due: Double) {
        var burst = EventBurst(quietSeconds: 0.02, capSeconds: 0.25)
        #expect(burst.due == nil)
        for (index, (seconds, completing)) in arrivals.enumerated() {
            burst.arrived(["sensor.e\(index % 3)"], at: Self.at(seconds)) { _ in completing }
        }
        let expected = Self.at(due)
        #expect(abs((burst.due ?? .distantPast).timeIntervalSince(expected)) < 1e-6)
        #expect(burst.take(at: expected.addingTimeInterval(-0.001)) == nil)
        let taken = burst.take(at: expected.addingTimeInterval(1e-6))
        #expect(taken == Set((0..<min(arrivals.count, 3)).map { "sensor.e\($0)" }))
        #expect(burst.due == nil)
        #expect(burst.entities.isEmpty)
        burst.arrived(["sensor.e9"], at: Self.at(1)) { _ in false }
        #expect(abs((burst.due ?? .distantPast).timeIntervalSince(Self.at(1.02))) < 1e-6)
        #expect(burst.take(at: Self.at(2)) == ["sensor.e9"])
    }

    /// Whether the burst is complete is asked of every entity it changed so far, not of the
    /// last arrival's alone: (arrivals, the entities that complete the appliance, due).
    @Test(arguments: [
        // The appliance's two entities, one message each: complete with the second.
        ([(0.0, ["a"]), (0.005, ["b"])], 0.005),
        // The same entity twice: never complete, the quiet wait.
        ([(0.0, ["a"]), (0.005, ["a"])], 0.025),
    ] as [([(Double, Set<String>)], Double)])
    func completenessCountsEveryEntityOfTheBurst(arrivals: [(Double, Set<String>)], due: Double) {
        var burst = EventBurst(quietSeconds: 0.02, capSeconds: 0.25)
        for (seconds, entities) in arrivals { burst.arrived(entities, at: Self.at(seconds)) { $0.isSuperset(of: ["a", "b"]) } }
        #expect(abs((burst.due ?? .distantPast).timeIntervalSince(Self.at(due))) < 1e-6)
    }

    /// HA coalesces: its message's end says it sent all it wrote together (issue 31, item
    /// 18). (arrivals, when HA said so or nil, when the burst is due.)
    @Test(arguments: [
        // A progress tick alone: due as its batch ends, not 20 ms later.
        ([(0.0, false)], 0.0 as Double?, 0.0),
        // Three entities of one write, one message: due at its end.
        ([(0.0, false), (0.0, false), (0.0, false)], 0.0, 0.0),
        // A batch's end with no burst under way (nothing changed) is nothing.
        ([], 0.0, nil),
        // No batch's end (an HA that doesn't coalesce): the quiet wait, as before.
        ([(0.0, false)], nil, 0.020),
    ] as [([(Double, Bool)], Double?, Double?)])
    func aBatchsEndEndsTheBurstAtOnce(arrivals: [(Double, Bool)], ended: Double?, due: Double?) {
        var burst = EventBurst(quietSeconds: 0.02, capSeconds: 0.25)
        for (seconds, completing) in arrivals { burst.arrived(["sensor.e"], at: Self.at(seconds)) { _ in completing } }
        if let ended { burst.ended(at: Self.at(ended)) }
        #expect(burst.due.map { abs($0.timeIntervalSince(Self.at(due ?? -1))) < 1e-6 } ?? (due == nil))
    }
}
