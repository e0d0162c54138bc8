@testable import CycleCommands
import CycleCore
@testable import CycleService
import FoundationEssentials
import Testing

/// `replay`'s summary: the numbers add up, and what was held back or left unused says why.
@Suite struct ReplaySummaryTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/examples/dishwasher-eco50.jsonl").path

    private func summary(limit: Int, trace: String = example, id: String = "dishwasher") throws -> String {
        let text = try #require(FileManager.default.contents(atPath: trace).map { String(decoding: $0, as: UTF8.self) })
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { ($0.offset + 1, String($0.element)) }
        var settings = Configuration(source: "defaults").defaultSettings(id: id)
        settings.cyclePushLimit = limit
        let result = try Replay.run(settings: settings, lines: lines.map { (number: $0.0, text: $0.1) })
        return ReplaySummary.render(result, settings: settings)
    }

    @Test func aTightLimitSaysWhichStepsWentWhatWasHeldBackAndWhySlotsWereLeft() throws {
        #expect(try summary(limit: 5) == """
            cycles: 1 (finished Eco 50°C, 4 calls)
            calls: start 1, quiet 1, progress 0, clear 1, end 1, total 4
            per-cycle limit: 5 calls: start, clear and end take 3, leaving 2 for steps and updates
            progress steps kept: 92, 98; dropped to fit the limit: 10, 20, 30, 40, 50, 60, 70, 80, 90, 94, 96
            held back: 2
              09:07:00 quiet (finish time): the 2 slots left were kept for the steps still ahead (92, 98)
              11:44:00 quiet (finish time): the 1 slot left was kept for the steps still ahead (98)
            per cycle:
              cycle 1: 4 of 5 calls made, 1 unused (1 kept for step 98, never reached)

            """)
    }

    @Test func aHoldForTheLiveActivitysReplacementSaysSo() throws {
        let oven = Self.example.replacingOccurrences(of: "dishwasher-eco50", with: "oven-slow-cook-10h")
        let text = try summary(limit: 18, trace: oven, id: "oven")
        #expect(text.contains("calls: start 1, quiet 14, progress 0, clear 2, end 1, total 18"), "\(text)")
        #expect(text.contains("kept for the steps still ahead (10, 20, 30, 40, 50, 60, 70, 80, 90, 92, 94, 96, 98) and the Live Activity's replacement"), "\(text)")
        let tight = try summary(limit: 4, trace: oven, id: "oven")
        #expect(tight.contains("quiet (replace): the Live Activity's replacement needs 2 free slots, 1 left"), "\(tight)")
    }

    @Test func theDefaultLimitDropsNothing() throws {
        let text = try summary(limit: 18)
        #expect(text.contains("progress steps: 10, 20, 30, 40, 50, 60, 70, 80, 90, 92, 94, 96, 98, none dropped"))
        // Calls made and slots unused add up to the limit, and each unused slot is explained.
        #expect(text.hasSuffix("  cycle 1: 16 of 18 calls made, 2 unused (1 kept for step 98, never reached; 1 not needed: nothing more to show)\n"), "\(text)")
    }
}
