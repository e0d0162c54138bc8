#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a test server on 127.0.0.1, for tests that speak HTTP byte by byte.
public enum LoopbackSocket {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A socket connected to 127.0.0.1:`port`, from `source` (another loopback address,
    /// such as 127.0.0.2, to be a second client) when given; reads time out after
    /// `receiveTimeout` when given. The caller closes it.
    public static func connect(port: UInt16, receiveTimeout: timeval? = nil, from source: String? = nil) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        if var timeout = receiveTimeout {
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = errno
                Glibc.close(socket)
                throw Failure(description: "could not bind to \(source): errno \(reason)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = errno
            Glibc.close(socket)
            throw Failure(description: "could not connect to 127.0.0.1:\(port): errno \(reason)")
        }
        return socket
    }
}
