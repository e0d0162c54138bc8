@testable import CycleCommands
import CycleService
import Testing

/// How the command line reports what went wrong: a configuration error's kind decides
/// the exit status (docs/REFERENCE.md, "Exit codes"), and `serve` refuses an address or
/// a port it can't use as a usage error.
@Suite struct CommandErrorTests {
    static let kinds: [(ConfigurationError.Kind, ExitCode)] = [
        (.missingFile, .noInput),
        (.argument, .usage),
        (.invalid, .config),
    ]

    @Test(arguments: kinds)
    func aConfigurationErrorExitsByItsKind(kind: ConfigurationError.Kind, code: ExitCode) {
        let error = CommandError(ConfigurationError(kind, "c.json: 'poll.active_seconds' expects a number"))
        #expect(error.code == code)
        #expect(error.message == "c.json: 'poll.active_seconds' expects a number")
    }

    @Test("serve --listen localhost, --port 99999 and --allow with a name are usage errors (64)",
          arguments: [["--listen", "localhost"], ["--port", "99999"], ["--allow", "my-laptop"]])
    func serveUsage(arguments: [String]) {
        #expect { _ = try ServeCommand(arguments: arguments, environment: [:]) } throws: { error in
            (error as? CommandError)?.code == .usage
        }
    }
}
