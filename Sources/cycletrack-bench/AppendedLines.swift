#if canImport(Glibc)
import Glibc
#endif

/// A file read as it grows, a complete line at a time: each `read` takes only what was
/// written since the last, so looking often costs a `read(2)` that finds nothing.
final class AppendedLines {
    private let path: String
    private var descriptor: Int32 = -1
    private var partial: [UInt8] = []

    init(path: String) { self.path = path }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Hands each complete line written since the last call to `take`, in order; a line
    /// not yet ended waits for the next call.
    func read(_ take: (String) -> Void) {
        if descriptor < 0 { descriptor = open(path, O_RDONLY) }
        guard descriptor >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            for byte in buffer[0..<count] {
                guard byte == UInt8(ascii: "\n") else {
                    partial.append(byte)
                    continue
                }
                take(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
            }
        }
    }
}
