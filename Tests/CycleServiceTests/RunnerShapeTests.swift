@testable import CycleService
import FoundationEssentials
import HTTPStandIn
@testable import HomeAssistantAPI
import TestSupport
import Testing

/// The runner only wires values (docs/DEVELOPMENT.md, "The runner"): what it keeps is a
/// handful of things, and the document names each of them.
@Suite struct RunnerShapeTests {
    static let kept = ["parts", "appliances", "household", "feed", "loop", "snapshots", "warned"]

    @Test func theRunnerKeepsSevenThingsAndTheDocumentNamesThem() throws {
        let fixture = try StoreFixture()
        let standIn = try HomeAssistantStandIn()
        let gateway = HomeAssistantGateway(client: HomeAssistantClient(baseURL: standIn.baseURL, token: standIn.token, http: HTTPClient()))
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_793_606_400), stopAt: Date(timeIntervalSince1970: 1_793_606_460))
        let runner = try Runner(appliances: [], databasePath: fixture.path(), sourceName: .run,
                                options: .init(activePollSeconds: 10, idlePollSeconds: 30, dailyPushLimit: 400, rediscoverSeconds: nil),
                                source: gateway, sink: gateway, clock: clock, log: LogCapture().log)
        // An actor is a class at run time: its mirror lists its stored properties in order,
        // after the default actor's own storage.
        let stored = Mirror(reflecting: runner).children.compactMap(\.label).filter { $0 != "$defaultActor" }
        #expect(stored == Self.kept)

        let docs = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "docs/DEVELOPMENT.md")
        let text = try String(contentsOf: docs, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("It keeps seven things: its `RunnerParts`"))
        for type in ["RunnerParts", "Household", "HomeAssistantFeed", "LoopState", "ApplianceSnapshots"] {
            #expect(text.contains("`\(type)`"), "docs/DEVELOPMENT.md names \(type)")
        }
    }
}
