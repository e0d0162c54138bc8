import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 127.0.0.1 port for a server a test starts (Home Assistant, the service's API), held
/// until the claim is released.
///
/// `scripts/test.sh` runs two test processes at once (the suites on HA 2026.11 and on
/// 2024.3.3), each booting several Home Assistants. A port that was free a moment ago
/// (bind to 0, close) can be handed to the other process before hass binds it: then one
/// process onboards the other's HA. A claim rules that out twice over:
/// - it is picked below the kernel's ephemeral range (`net.ipv4.ip_local_port_range`),
///   where no bind to port 0 and no client connection is given a port;
/// - it is claimed with `flock(2)` on a file per port in `/tmp/cycletrack-ports`, which
///   every test process on the machine honours and the kernel releases when the process
///   ends, however it ends.
final class PortClaim: Sendable {
    let port: Int
    private let descriptor: Int32

    static let directory = "/tmp/cycletrack-ports"

    /// Claims a port that no other claim holds and that nothing listens on now.
    init() throws {
        mkdir(Self.directory, 0o1777)
        let range = 20_000 ..< max(21_000, Self.ephemeralStart())
        for _ in 0 ..< 500 {
            let candidate = Int.random(in: range)
            let lock = open("\(Self.directory)/\(candidate).lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o666)
            guard lock >= 0 else {
                throw HomeAssistantTestError("cannot open \(Self.directory)/\(candidate).lock: errno \(errno)")
            }
            if flock(lock, LOCK_EX | LOCK_NB) == 0, Self.canBind(candidate) {
                port = candidate
                descriptor = lock
                return
            }
            close(lock)
        }
        throw HomeAssistantTestError("no free, unclaimed port in \(range) on 127.0.0.1 after 500 tries")
    }

    deinit {
        close(descriptor)
    }

    /// The first port the kernel hands out on its own (32768 unless configured).
    private static func ephemeralStart() -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
    }

    /// Whether a listener could bind 127.0.0.1:`port` right now.
    private static func canBind(_ port: Int) -> Bool {
        #if canImport(Glibc)
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let probe = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
