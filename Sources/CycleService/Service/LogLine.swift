/// A log line decided by a value (a state machine) and written by the one that performs
/// its actions: tests compare these, the runner hands them to ``Log``.
struct LogLine: Sendable, Equatable {
    var level: Log.Level
    var event: String
    var fields: [Field]

    struct Field: Sendable, Equatable {
        var key: String
        var value: String
    }

    init(_ level: Log.Level, _ event: String, _ fields: [(String, String)] = []) {
        self.level = level
        self.event = event
        self.fields = fields.map { Field(key: $0.0, value: $0.1) }
    }

    /// The value of `key`, if the line has it.
    subscript(key: String) -> String? { fields.first { $0.key == key }?.value }
}

extension Log {
    func write(_ line: LogLine) {
        emit(line.level, line.event, line.fields.map { ($0.key, $0.value) })
    }
}
