#if canImport(Glibc)
import Glibc
#endif

/// Socket calls of the stand-in: loopback only, bounded waits, no SIGPIPE.
enum StandInSocket {
    /// A listening TCP socket on 127.0.0.1 at an ephemeral port.
    static func listenOnLoopback() throws(StandInError) -> (fd: Int32, port: Int) {
        let fd = try boundLoopbackSocket()
        guard listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw StandInError(what: "listen", code: code)
        }
        do {
            return (fd, try localPort(of: fd))
        } catch {
            close(fd)
            throw error
        }
    }

    /// A TCP socket bound to 127.0.0.1 at a port the kernel picked.
    static func boundLoopbackSocket() throws(StandInError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StandInError(what: "socket", code: errno) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw StandInError(what: "bind 127.0.0.1:0", code: code)
        }
        return fd
    }

    static func localPort(of fd: Int32) throws(StandInError) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw StandInError(what: "getsockname", code: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits up to `milliseconds` for `events` on `fd`; the revents, 0 on timeout, -1 on error.
    static func wait(_ fd: Int32, for events: Int16, milliseconds: Int32) -> Int16 {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        let result = poll(&descriptor, 1, milliseconds)
        if result < 0 { return errno == EINTR ? 0 : -1 }
        return result == 0 ? 0 : descriptor.revents
    }

    /// Sends all of `bytes`, waiting in short slices so that `isStopped` can end the
    /// wait; false when the peer went away or the server stopped.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, isStopped: () -> Bool) -> Bool {
        var offset = 0
        while offset < bytes.count {
            if isStopped() { return false }
            let ready = wait(fd, for: Int16(POLLOUT), milliseconds: 50)
            if ready < 0 || ready & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return false }
            if ready == 0 { continue }
            // Invariant: offset < bytes.count, so the buffer is non-empty and has a base address.
            let sent = send(fd, bytes.baseAddress! + offset, bytes.count - offset,
                            Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if sent < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    static func sendAll(_ fd: Int32, _ bytes: [UInt8], isStopped: () -> Bool) -> Bool {
        bytes.withUnsafeBytes { sendAll(fd, $0, isStopped: isStopped) }
    }
}
