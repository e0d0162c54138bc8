#if canImport(Glibc)
import Glibc
#endif

/// The machine's host name: inside the add-on, the add-on container's name on the
/// Supervisor's network (`a0d7b954-cycletrack`), which Home Assistant reaches it by.
public enum HostName {
    public static func current() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
