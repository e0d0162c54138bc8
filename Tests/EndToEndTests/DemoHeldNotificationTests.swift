import Foundation
import Testing

/// The demo shows a held notification: Alice is out when the dishwasher finishes, so its
/// end notification goes out after the clear, when she is home, to her alone.
@Suite struct DemoHeldNotificationTests {
    @Test func theDishwashersEndNotificationWaitsForAlice() throws {
        let scratch = try Scratch()
        let result = try CycletrackProcess.run(["demo", "--speed", "2000"], environment: ["TMPDIR": scratch.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Alice (person.alice) is out") })
        let clear = try #require(lines.first { $0.contains("dishwasher clear") })
        let end = try #require(lines.first { $0.contains("dishwasher end") })
        #expect(end.hasSuffix("[to person.alice]"))
        // "HH:MM" at the start of each line: the end comes later than the clear.
        #expect(end.prefix(5) != clear.prefix(5), "\(clear) / \(end)")
        #expect(try #require(lines.firstIndex(of: end)) > (try #require(lines.firstIndex(of: clear))))
    }
}
