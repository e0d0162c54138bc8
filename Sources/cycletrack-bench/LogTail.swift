import FoundationEssentials

/// Follows a log file as it grows: each new complete line with the moment `read()`
/// first saw it (the service's lines carry no time of their own). Called often, the
/// moment is within one call's gap of when the line was written.
final class LogTail {
    struct Line {
        var at: Date
        var text: String
    }

    private let file: AppendedLines
    private(set) var lines: [Line] = []

    init(path: String) { file = AppendedLines(path: path) }

    /// Reads what was written since the last call; returns how many lines it added.
    @discardableResult
    func read() -> Int {
        let before = lines.count
        file.read { text in lines.append(Line(at: Date(), text: text)) }
        return lines.count - before
    }

    /// The first line from index `start` on holding `text`, with its index.
    func first(_ text: String, from start: Int) -> (index: Int, line: Line)? {
        guard start < lines.count else { return nil }
        for index in start..<lines.count where lines[index].text.contains(text) { return (index, lines[index]) }
        return nil
    }
}
