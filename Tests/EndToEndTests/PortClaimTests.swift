import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// The ports the end-to-end servers listen on: below the kernel's ephemeral range, and
/// held against every other claim on the machine until released.
@Suite struct PortClaimTests {
    @Test("A claimed port is below the ephemeral range, and no other claim gets it until it is released")
    func claimsAreExclusive() throws {
        let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let ephemeral = Int(range.split(whereSeparator: \.isWhitespace)[0])!
        var claims = try (0 ..< 40).map { _ in try PortClaim() }
        #expect(Set(claims.map(\.port)).count == claims.count)
        #expect(claims.allSatisfy { $0.port >= 20_000 && $0.port < max(21_000, ephemeral) })

        // Another process's claim is a second open file on the same lock: refused while held.
        let port = claims[0].port
        let path = "\(PortClaim.directory)/\(port).lock"
        let other = open(path, O_RDWR)
        #expect(other >= 0)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0)
        claims.removeFirst()
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0, "released with the claim")
    }
}
