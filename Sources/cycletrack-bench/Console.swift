#if canImport(Glibc)
import Glibc
#endif

/// Progress and errors go to stderr, so that stdout holds only the results.
enum Console {
    /// A progress line: `[bench] text`.
    static func progress(_ text: String) {
        writeError("[bench] " + text + "\n")
    }

    static func writeError(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(2, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }
}
