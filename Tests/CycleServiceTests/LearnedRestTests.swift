import CycleCore
import CycleHistory
@testable import CycleService
import FoundationEssentials
import TestSupport
import Testing

/// A plug learns the longest rest inside its cycles from the store (migration 0006).
@Suite struct LearnedRestTests {
    @Test func aPlugLearnsTheLongestRestOfItsLatestFinishedCycles() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store(appliance: "washer")
        for (index, rest) in [540.0, 300, 610].enumerated() {
            let start = t(Double(index) * 10)
            let id = try store.openCycle(applianceID: "washer", program: nil, startedAt: start, source: .run)
            try store.closeCycle(id: id, endedAt: start.addingTimeInterval(3600), outcome: .finished, energyEnd: nil)
            try store.recordLongestRest(cycleID: id, seconds: rest)
        }
        let aborted = try store.openCycle(applianceID: "washer", program: nil, startedAt: t(100), source: .run)
        try store.closeCycle(id: aborted, endedAt: t(101), outcome: .aborted, energyEnd: nil)
        try store.recordLongestRest(cycleID: aborted, seconds: 5000)
        #expect(try store.longestRests(applianceID: "washer", limit: 10) == [610, 300, 540])
        var plug = ApplianceSettings(id: "washer", name: "Washer")
        plug.profile = .plug
        let learned = try LearnedDurationsReader.learning(plug, store: store)
        #expect(learned.learned?.longestRest == 610)
    }
}
