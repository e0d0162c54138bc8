import CycleCore
import CycleHistory
import Foundation
import Testing

/// The history commands as a user types them (issue 22, defects 4, 5 and 12): the
/// binary's exit codes and messages for a history file that isn't one, a folder that
/// doesn't exist, and the page's address and port.
@Suite("History command line")
struct HistoryCommandLineTests {
    @Test("serve says at start what is wrong with --db: missing (66), a text file (78)")
    func serveChecksTheHistory() throws {
        let scratch = try Scratch()
        let missing = try CycletrackProcess.run(["serve", "--db", scratch.path + "/histroy.sqlite", "--port", "0"], timeout: 20)
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains(scratch.path + "/histroy.sqlite") && missing.stderr.contains("does not exist"))
        let text = scratch.write("notes.txt", "shopping: milk, eggs\n")
        let notDatabase = try CycletrackProcess.run(["serve", "--db", text, "--port", "0"], timeout: 20)
        #expect(notDatabase.status == 78, "\(notDatabase.stderr)")
        #expect(notDatabase.stderr.contains(text) && notDatabase.stderr.contains("not a SQLite database"))
        #expect(!notDatabase.stderr.contains("event=history_page"), "nothing served")
    }

    @Test("serve --listen localhost and --port 99999 are usage errors, 64 both")
    func serveUsage() throws {
        for arguments in [["--listen", "localhost"], ["--port", "99999"]] {
            let result = try CycletrackProcess.run(["serve", "--db", "x.sqlite"] + arguments, timeout: 20)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }

    @Test("replay --record into a missing folder and prune of another program's database: 78, nothing made or changed")
    func recordAndPruneRefuse() throws {
        let scratch = try Scratch()
        let trace = HomeAssistantProcess.repositoryRoot.appendingPathComponent("docs/examples/dryer-jump-ends-ready.jsonl").path
        let config = scratch.write("empty.json", "{}")
        let record = try CycletrackProcess.run(["replay", trace, "--appliance", "dryer", "--config", config,
                                                "--record", scratch.path + "/no/such/dir/x.sqlite"], timeout: 30)
        #expect(record.status == 78, "\(record.stderr)")
        #expect(record.stderr.contains("does not exist"))
        #expect(!scratch.exists("no"), "no folder made")
        let empty = scratch.write("empty.sqlite", "")
        let prune = try CycletrackProcess.run(["prune", "--db", empty, "--before", "30d"], timeout: 30)
        #expect(prune.status == 78, "\(prune.stderr)")
        #expect(prune.stderr.contains("not a cycletrack history"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty, "left empty")
    }
}
