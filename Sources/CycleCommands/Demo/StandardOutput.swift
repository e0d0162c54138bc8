#if canImport(Glibc)
import Glibc
#endif

/// Writes to file descriptor 1 directly, one `write` per call: what the demo prints
/// arrives as it happens, also through a pipe (`cycletrack demo | tee demo.txt`), where
/// `print` would hold it in the C library's block buffer until the end. (The C `stdout`
/// global, to change its buffering, is shared mutable state Swift 6 won't touch.)
enum StandardOutput {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.write(1, base + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    static func line(_ text: String) { write(text + "\n") }
}
