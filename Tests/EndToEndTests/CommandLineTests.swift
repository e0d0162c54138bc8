import CycleCommands
import CycleService
import Foundation
import Testing

/// The conventions of the command line, as the built executable shows them.
@Suite struct CommandLineTests {
    @Test func bareCycletrackIsAUsageErrorWithTheHelpOnStderr() throws {
        let result = try CycletrackProcess.run([])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("usage: cycletrack <command> [options]"))
    }

    @Test func helpGoesToStdoutAndExitsZero() throws {
        for words in [["--help"], ["help"], ["-h"]] {
            let result = try CycletrackProcess.run(words)
            #expect(result.status == 0)
            #expect(result.stdout == CommandLineTool.usage)
            #expect(result.stderr.isEmpty)
        }
    }

    @Test(arguments: CommandLineTool.commands)
    func helpCommandIsCommandDashDashHelp(command: String) throws {
        let viaHelp = try CycletrackProcess.run(["help", command])
        let viaFlag = try CycletrackProcess.run([command, "--help"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout == CommandLineTool.help(for: command))
        #expect(viaHelp.stdout.hasPrefix("usage: cycletrack \(command)"))
    }

    @Test func unknownCommandsAndHelpTopicsAreUsageErrors() throws {
        let unknown = try CycletrackProcess.run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown command 'frobnicate'"))
        let topic = try CycletrackProcess.run(["help", "frobnicate"])
        #expect(topic.status == 64)
        #expect(topic.stdout.isEmpty)
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try CycletrackProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "cycletrack \(CycletrackVersion.current)\n")
    }

    @Test func aBadTimeIsAUsageErrorAndAMissingDatabaseIsNoInput() throws {
        let scratch = try Scratch()
        let badTime = try CycletrackProcess.run(["query", "--db", scratch.path + "/h.sqlite", "--since", "last week"])
        #expect(badTime.status == 64, "\(badTime.stderr)")
        let missing = try CycletrackProcess.run(["query", "--db", scratch.path + "/h.sqlite"])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(!scratch.exists("h.sqlite"))
    }

    @Test func queryFindsTheDatabaseThroughConfig() throws {
        let scratch = try Scratch()
        let database = scratch.path + "/kept.sqlite"
        let demo = try CycletrackProcess.run(["demo", "--speed", "2000", "--db", database], timeout: 120)
        #expect(demo.status == 0, "\(demo.stderr)")
        let config = scratch.write("cycletrack.json", #"{"database": "\#(database)"}"#)
        let query = try CycletrackProcess.run(["query", "--config", config, "--format", "csv"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.split(separator: "\n").count == 3)
        // The same cycles in local time: Berlin is one or two hours ahead of UTC.
        let utc = try CycletrackProcess.run(["query", "--db", database], environment: ["TZ": "UTC"])
        let berlin = try CycletrackProcess.run(["query", "--db", database], environment: ["TZ": "Europe/Berlin"])
        #expect(utc.status == 0 && berlin.status == 0)
        if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin") {
            #expect(utc.stdout != berlin.stdout, "TZ changes the table's times")
        }
        let prune = try CycletrackProcess.run(["prune", "--db", database, "--before", "2100-01-01", "--source", "demo"])
        #expect(prune.status == 0, "\(prune.stderr)")
        #expect(prune.stdout.hasPrefix("deleted 2 demo cycles"), "\(prune.stdout)")
    }

    @Test func theDemoRefusesADatabaseARunHolds() throws {
        let scratch = try Scratch()
        let database = scratch.path + "/history.sqlite"
        // This process stands in for the running service: it takes the lock `run` takes.
        let lock = try DatabaseLock(database: database)
        let result = try CycletrackProcess.run(["demo", "--speed", "2000", "--db", database], timeout: 120)
        #expect(result.status == 78)
        #expect(result.stderr.contains("demo refuses \(database): it is held by process \(getpid())"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        withExtendedLifetime(lock) {}
    }

    @Test func theDemoWritesEachLineAsItHappensIntoAPipe() throws {
        let scratch = try Scratch()
        let child = try CycletrackProcess(["demo", "--speed", "500"], environment: ["TMPDIR": scratch.path])
        // Blocking, not async: a start line must be seen while the demo (seconds long) still
        // runs, and Swift's two cooperative threads may be busy with other suites.
        let deadline = Date().addingTimeInterval(20)
        while !child.stdoutSoFar.contains(" start "), Date() < deadline { usleep(50_000) }
        let running = child.process.isRunning
        #expect(child.stdoutSoFar.contains("what the phone shows"))
        #expect(child.stdoutSoFar.contains(" start "), "a call shown while the demo runs")
        #expect(running, "the lines came before the end")
        child.signal(SIGINT)
        let result = child.wait(timeout: 30)
        #expect(result.status == 130)
    }
}
