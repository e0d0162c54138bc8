#if canImport(Glibc)
import Glibc
#endif

/// One accepted connection: reads HTTP/1.1 requests one after another (keep-alive),
/// hands each to the handler and carries out its ``HTTPStandIn/Reply``. Every wait is
/// a short `poll` slice that checks `isStopped`, so `stop()` ends it promptly.
struct StandInConnection {
    /// Requests larger than this are refused with 413.
    static let maxHeaderBytes = 64 * 1024
    static let maxBodyBytes = 64 * 1024 * 1024

    let fd: Int32
    let index: Int
    let handler: @Sendable (HTTPStandIn.Request) -> HTTPStandIn.Reply
    let isStopped: @Sendable () -> Bool

    private enum Outcome { case keepOpen, close }

    func run() {
        defer { close(fd) }
        var buffer: [UInt8] = []
        while !isStopped() {
            guard let request = readRequest(&buffer) else { return }
            let wantsClose = request.headers["connection"]?.lowercased() == "close"
            if perform(handler(request), wantsClose: wantsClose, buffered: buffer) == .close || wantsClose { return }
        }
    }

    // MARK: Reading

    /// The next complete request, or nil when the peer closed, the server stopped, or the
    /// request can't be served (after answering it with an error status).
    private func readRequest(_ buffer: inout [UInt8]) -> HTTPStandIn.Request? {
        var headEnd = StandInConnection.headEnd(in: buffer)
        while headEnd == nil {
            guard buffer.count <= StandInConnection.maxHeaderBytes else {
                _ = write(.text("request head too large", status: 431), close: true)
                return nil
            }
            guard receive(into: &buffer) else { return nil }
            headEnd = StandInConnection.headEnd(in: buffer)
        }
        // Invariant: the loop above only ends with a head end found.
        let end = headEnd!
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeSubrange(..<(end + 4))

        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
        guard requestLine.count == 3 else {
            _ = write(.text("malformed request line", status: 400), close: true)
            return nil
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers[name] = String(value)
        }
        if headers["transfer-encoding"] != nil {
            _ = write(.text("chunked request bodies are not supported", status: 501), close: true)
            return nil
        }
        let length = Int(headers["content-length"] ?? "0") ?? -1
        guard length >= 0, length <= StandInConnection.maxBodyBytes else {
            _ = write(.text("bad Content-Length", status: 413), close: true)
            return nil
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            guard StandInSocket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), isStopped: isStopped) else {
                return nil
            }
        }
        while buffer.count < length {
            guard receive(into: &buffer) else { return nil }
        }
        let body = Array(buffer[..<length])
        buffer.removeSubrange(..<length)

        let target = requestLine[1]
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        return HTTPStandIn.Request(method: requestLine[0], path: path, target: target, headers: headers,
                                   body: body, connection: index)
    }

    /// Appends what arrives next; false when the peer closed or the server stopped.
    private func receive(into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while !isStopped() {
            let ready = StandInSocket.wait(fd, for: Int16(POLLIN), milliseconds: 50)
            if ready < 0 { return false }
            if ready == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        return false
    }

    private static func headEnd(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    // MARK: Answering

    /// `buffered`: bytes already read past the request, which belong to a WebSocket.
    private func perform(_ reply: HTTPStandIn.Reply, wantsClose: Bool, buffered: [UInt8]) -> Outcome {
        switch reply {
        case .respond(let response):
            return write(response, close: wantsClose)
        case .closeWithoutAnswer:
            return .close
        case .neverAnswer:
            holdUntilPeerLeavesOrStop()
            return .close
        case .slow(let response, let seconds):
            guard pause(seconds) else { return .close }
            return write(response, close: wantsClose)
        case .hugeBody(let bytes, let announced):
            return streamHugeBody(bytes, announced: announced)
        case .malformedJSON:
            return write(.json(#"{"result": [1, 2, "unterminated"#), close: wantsClose)
        case .webSocket(let accept, let serve):
            let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(accept)\r\n\r\n"
            guard StandInSocket.sendAll(fd, Array(head.utf8), isStopped: isStopped) else { return .close }
            // The peer only shuts the socket down; `run` closes it once `serve` is done.
            serve(WebSocketStandInPeer(fd: fd, buffered: buffered, ownsSocket: false, isStopped: isStopped))
            return .close
        }
    }

    private func write(_ response: HTTPStandIn.Response, close: Bool) -> Outcome {
        var head = "HTTP/1.1 \(response.status) \(StandInConnection.reason(response.status))\r\n"
        for header in response.headers {
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\n"
        if close { head += "Connection: close\r\n" }
        head += "\r\n"
        let sent = StandInSocket.sendAll(fd, Array(head.utf8) + response.body, isStopped: isStopped)
        return sent && !close ? .keepOpen : .close
    }

    private func streamHugeBody(_ bytes: Int, announced: Bool) -> Outcome {
        let length = announced ? "Content-Length: \(bytes)" : "Connection: close"
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(length)\r\n\r\n"
        guard StandInSocket.sendAll(fd, Array(head.utf8), isStopped: isStopped) else { return .close }
        let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 * 1024)
        var remaining = bytes
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            let sent = chunk.withUnsafeBytes { buffer in
                StandInSocket.sendAll(fd, UnsafeRawBufferPointer(rebasing: buffer[..<count]), isStopped: isStopped)
            }
            // The client gave up (as it should, past its size cap): stop streaming.
            guard sent else { return .close }
            remaining -= count
        }
        return announced ? .keepOpen : .close
    }

    private func holdUntilPeerLeavesOrStop() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while !isStopped() {
            let ready = StandInSocket.wait(fd, for: Int16(POLLIN), milliseconds: 50)
            if ready < 0 { return }
            if ready == 0 { continue }
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 && !(count < 0 && errno == EINTR) { return }
        }
    }

    /// Sleeps `seconds` in short slices; false when the server stopped meanwhile.
    private func pause(_ seconds: Double) -> Bool {
        var left = max(0, seconds)
        while left > 0 {
            if isStopped() { return false }
            let slice = min(left, 0.02)
            usleep(UInt32(slice * 1_000_000))
            left -= slice
        }
        return !isStopped()
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Payload Too Large"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
