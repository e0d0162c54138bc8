import CycleHistory
import HomeAssistantAPI
import CycleCore
#if canImport(Glibc)
import Glibc
#endif

/// Writes text to file descriptor 2 directly: the C `stderr` global is shared mutable
/// state that Swift 6 won't touch from concurrent code.
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)  // non-empty: offset < count
            }
            if written <= 0 { return }
            offset += written
        }
        bytes.removeAll()
    }
}
