#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 that writes bytes and reads them back as they
/// came, so the stand-ins are tested without the HTTP client they stand in for. Every
/// read waits at most `timeoutSeconds` (SO_RCVTIMEO): a deadline, never a sleep.
final class LoopbackConnection {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// An HTTP/1.1 response as read off the wire.
    struct Response {
        var status: Int
        /// Header names lowercased.
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    /// Bytes read and not yet handed out.
    private var buffer: [UInt8] = []

    init(port: Int, timeoutSeconds: Int = 30) throws(Failure) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: code == ECONNREFUSED ? "refused" : "connect: errno \(code)")
        }
    }

    deinit { close(fd) }

    func write(_ text: String) throws(Failure) { try write(Array(text.utf8)) }

    func write(_ bytes: [UInt8]) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
    }

    /// One GET or POST, as a client on a keep-alive connection sends it.
    func request(_ method: String, _ target: String, headers: [String: String] = [:], body: String = "") throws(Failure) {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.utf8.count)\r\n" }
        try write(head + "\r\n" + body)
    }

    /// Reads what arrives next; false once the peer closed the connection (or reset it).
    private func fill() throws(Failure) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 || (count < 0 && errno == ECONNRESET) { return false }
        guard count > 0 else {
            throw Failure(description: errno == EAGAIN || errno == EWOULDBLOCK ? "no answer in time" : "recv: errno \(errno)")
        }
        buffer += chunk[..<count]
        return true
    }

    /// Whether the peer closed the connection with nothing (more) to read.
    func closedByPeer() throws(Failure) -> Bool {
        if !buffer.isEmpty { return false }
        return try !fill()
    }

    /// Exactly `count` bytes; throws if the connection ends first.
    func read(_ count: Int) throws(Failure) -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "closed after \(buffer.count) of \(count) bytes") }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }

    /// Everything until the peer closes.
    func readToEnd() throws(Failure) -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// The status line and headers of a response.
    func readHead() throws(Failure) -> (status: Int, headers: [String: String]) {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        var found: Int?
        while found == nil {
            found = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == end }
            if found == nil, try !fill() { throw Failure(description: "closed before a whole head") }
        }
        let headEnd = found ?? 0
        let lines = String(decoding: buffer[..<headEnd], as: UTF8.self).split(separator: "\r\n").map(String.init)
        buffer.removeFirst(headEnd + 4)
        let statusParts = (lines.first ?? "").split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "not a status line: \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces
        }
        return (status, headers)
    }

    /// A whole response: its body by Content-Length, or up to the close without one.
    func readResponse() throws(Failure) -> Response {
        let (status, headers) = try readHead()
        let body = if let length = headers["content-length"].flatMap(Int.init) { try read(length) } else { try readToEnd() }
        return Response(status: status, headers: headers, body: body)
    }
}

extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
