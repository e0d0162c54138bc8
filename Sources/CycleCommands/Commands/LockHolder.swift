import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Who holds the `flock` on a database file, for a message that says so: read from
/// Linux's `/proc/locks` (the holder's process id and the file's device and inode) and
/// the holder's `/proc/PID/cmdline`. Nil where the system doesn't tell.
enum LockHolder {
    /// "process 4242 (cycletrack run --config /etc/cycletrack.json)", or nil.
    static func describe(_ path: String, locks: String = "/proc/locks") -> String? {
        var info = stat()
        guard stat(path, &info) == 0, let table = FileManager.default.contents(atPath: locks) else { return nil }
        // glibc's encoding of major and minor in a dev_t (its `major`/`minor` macros).
        let dev = UInt64(info.st_dev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff))
        let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
        let device = "\(String(major, radix: 16)):\(String(minor, radix: 16))"
        for line in String(decoding: table, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF"
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]) else { continue }
            let parts = fields[5].split(separator: ":")
            guard parts.count == 3, UInt64(parts[2]) == UInt64(info.st_ino),
                  Self.sameDevice(String(parts[0]) + ":" + String(parts[1]), device) else { continue }
            return "process \(pid)" + (commandLine(pid).map { " (\($0))" } ?? "")
        }
        return nil
    }

    /// `/proc/locks` writes the device as hexadecimal `major:minor`, zero-padded.
    private static func sameDevice(_ listed: String, _ device: String) -> Bool {
        func numbers(_ text: String) -> [UInt64] { text.split(separator: ":").compactMap { UInt64($0, radix: 16) } }
        return numbers(listed) == numbers(device)
    }

    private static func commandLine(_ pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let first = words.first else { return nil }
        let name = first.split(separator: "/").last.map(String.init) ?? first
        return ([name] + words.dropFirst()).joined(separator: " ")
    }
}
