#if canImport(Glibc)
import Glibc
#endif

/// Which client addresses the history page answers: all of them when the list is
/// empty, else only these. In the add-on the list is the Supervisor's ingress proxy
/// (172.30.32.2), so only Home Assistant's "Open Web UI" reaches the page.
///
/// Checked for each request: a client outside the list is answered 403.
public struct ClientAllowList: Sendable, Equatable {
    /// The allowed addresses as raw bytes: 4 for IPv4, 16 for IPv6.
    let addresses: [[UInt8]]

    /// Reads `1.2.3.4` and `::1` style addresses; anything else is a problem text.
    public init(_ texts: [String]) throws(HistoryServerError) {
        var addresses: [[UInt8]] = []
        for text in texts {
            guard let bytes = Self.parse(text) else {
                throw HistoryServerError("http.allow expects IP addresses like 172.30.32.2 or ::1, got '\(text)'")
            }
            addresses.append(bytes)
        }
        self.addresses = addresses
    }

    public var allowsEveryone: Bool { addresses.isEmpty }

    /// Whether a client at this address may connect. An IPv4 client seen through an IPv6
    /// socket (`::ffff:a.b.c.d`) counts as its IPv4 address.
    public func allows(_ address: [UInt8]) -> Bool {
        guard !addresses.isEmpty else { return true }
        let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
        let plain = address.count == 16 && Array(address.prefix(12)) == mappedPrefix ? Array(address.suffix(4)) : address
        return addresses.contains(plain) || addresses.contains(address)
    }

    /// Whether the client behind a `sockaddr` (as libmicrohttpd hands it over) may
    /// connect; an address family other than IPv4 or IPv6 never may, unless all may.
    public func allows(_ address: UnsafePointer<sockaddr>, length: socklen_t) -> Bool {
        guard !addresses.isEmpty else { return true }
        switch Int32(address.pointee.sa_family) {
        case AF_INET where Int(length) >= MemoryLayout<sockaddr_in>.size:
            let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
            return allows(bytes)
        case AF_INET6 where Int(length) >= MemoryLayout<sockaddr_in6>.size:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            return allows(bytes)
        default:
            return false
        }
    }

    /// `192.168.1.9` or `::1`, for the log line of a refused client and the API's `api_refused`.
    static func text(of address: UnsafePointer<sockaddr>) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(address.pointee.sa_family)
        let written: UnsafePointer<CChar>? = if family == AF_INET {
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var bytes = pointer.pointee.sin_addr
                return inet_ntop(AF_INET, &bytes, &buffer, socklen_t(buffer.count))
            }
        } else {
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var bytes = pointer.pointee.sin6_addr
                return inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count))
            }
        }
        guard written != nil else { return "an unknown address" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address's bytes (network order), or nil when it isn't an IPv4 or IPv6 literal.
    public static func parse(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }
}
