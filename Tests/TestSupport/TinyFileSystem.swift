import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs of its own (root only): fills up and frees on request, unmounted when released.
public final class TinyFileSystem: @unchecked Sendable {
    public let path: String
    private let filler: String

    /// Whether a tmpfs can be mounted here (root, and mounting allowed): tests that need
    /// one are skipped, saying ``why``, where it can't.
    public static let canMount: Bool = (try? TinyFileSystem(megabytes: 1)) != nil

    public static let why: Comment = "needs root and `mount -t tmpfs` (a small file system to fill up)"

    /// Nil when not root or when mounting is not allowed (see ``canMount``).
    public init?(megabytes: Int) throws {
        path = NSTemporaryDirectory() + "cycletrack-tmpfs-\(UUID().uuidString)"
        filler = path + "/filler"
        guard getuid() == 0 else { return nil }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.shell("mount -t tmpfs -o size=\(megabytes)m tmpfs '\(path)'") else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    deinit {
        _ = Self.shell("umount '\(path)'")
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file until the file system is full.
    public func fill() {
        guard !FileManager.default.fileExists(atPath: filler) else { return }
        let descriptor = open(filler, O_WRONLY | O_CREAT, 0o600)
        guard descriptor >= 0 else { return }
        let block = [UInt8](repeating: 0, count: 64 * 1024)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        close(descriptor)
    }

    public func free() { unlink(filler) }

    /// Remounts read-only (or read-write again).
    public func remount(readOnly: Bool) -> Bool { Self.shell("mount -o remount,\(readOnly ? "ro" : "rw") '\(path)'") }

    static func shell(_ command: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " 2>/dev/null"]
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
