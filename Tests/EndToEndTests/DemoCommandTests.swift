import Foundation
import Testing

@Suite struct DemoCommandTests {
    @Test func theDemoRunsTheServiceAndShowsWhatItStored() throws {
        let scratch = try Scratch()
        let result = try CycletrackProcess.run(["demo", "--speed", "2000"], environment: ["TMPDIR": scratch.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(" start ") }.count == 2)
        #expect(lines.filter { $0.contains(" clear ") }.count == 2)
        #expect(lines.contains { $0.contains("Dishwasher finished") })
        #expect(lines.contains { $0.contains("Paused") })
        let header = try #require(lines.firstIndex { $0.hasPrefix("id  appliance") })
        #expect(lines[(header + 1)...].filter { $0.contains("finished") }.count == 2)
        // The temporary database is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func theDemoKeepsItsDatabaseWhenAsked() throws {
        let scratch = try Scratch()
        let database = scratch.path + "/demo.sqlite"
        let result = try CycletrackProcess.run(["demo", "--speed", "2000", "--db", database], timeout: 120)
        #expect(result.status == 0)
        let query = try CycletrackProcess.run(["query", "--db", database, "--format", "csv"])
        #expect(query.status == 0)
        #expect(query.stdout.split(separator: "\n").count == 3, "a header and two cycles: \(query.stdout)")
    }
}
