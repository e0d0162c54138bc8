import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Follows a log file as it grows: each new complete line with the moment `read()`
/// first saw it (the service's lines carry no time of their own). Called often, the
/// moment is within one call's gap of when the line was written.
final class LogTail {
    struct Line {
        var at: Date
        var text: String
    }

    private let path: String
    private var descriptor: Int32 = -1
    private var partial: [UInt8] = []
    private(set) var lines: [Line] = []

    init(path: String) { self.path = path }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Reads what was written since the last call; returns how many lines it added.
    @discardableResult
    func read() -> Int {
        if descriptor < 0 { descriptor = open(path, O_RDONLY) }
        guard descriptor >= 0 else { return 0 }
        let before = lines.count
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            let now = Date()
            for byte in buffer[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    lines.append(Line(at: now, text: String(decoding: partial, as: UTF8.self)))
                    partial.removeAll(keepingCapacity: true)
                } else {
                    partial.append(byte)
                }
            }
        }
        return lines.count - before
    }

    /// The first line from index `start` on holding `text`, with its index.
    func first(_ text: String, from start: Int) -> (index: Int, line: Line)? {
        guard start < lines.count else { return nil }
        for index in start..<lines.count where lines[index].text.contains(text) { return (index, lines[index]) }
        return nil
    }
}
