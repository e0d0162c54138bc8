/// Why the benchmark could not go on: one line, saying what was being done and what
/// was expected.
struct BenchError: Error, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
