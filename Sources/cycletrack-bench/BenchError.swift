/// Why the benchmark could not go on: one line, saying what was being done and what
/// was expected.
struct BenchError: Error, CustomStringConvertible {
    var message: String
    /// 64 (EX_USAGE) for a bad command line, else 70 (EX_SOFTWARE): the benchmark could not run.
    var exitCode: Int32 = 70

    init(_ message: String) {
        self.message = message
    }

    /// A command-line mistake.
    static func usage(_ message: String) -> BenchError {
        var error = BenchError(message)
        error.exitCode = 64
        return error
    }

    var description: String { message }
}
