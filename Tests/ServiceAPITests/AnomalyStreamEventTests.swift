import CycleCore
import FoundationEssentials
import Testing
@testable import CycleService
@testable import ServiceAPI

/// An anomaly note in the local API's event stream (docs/API.md, "Events"), for the
/// integration's event entity.
@Suite struct AnomalyStreamEventTests {
    @Test func anAnomalyIsAStreamEventOfItsOwn() {
        let event = APIJSON.event(.anomaly(appliance: "dishwasher", anomaly: "progress stuck (45 min)",
                                           reason: "anomaly: progress stuck (45 min)", at: Date(timeIntervalSince1970: 0)))
        #expect(event.name == "anomaly")
        #expect(event.data.compactJSON() == #"{"appliance":"dishwasher","anomaly":"progress stuck (45 min)","#
            + #""reason":"anomaly: progress stuck (45 min)","at":"1970-01-01T00:00:00Z"}"#)
    }
}
