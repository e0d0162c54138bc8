import CCurl

/// What libcurl's callbacks collect during one transfer: the body, capped, and the
/// header lines of the latest response. Used only on ``HTTPClient``'s queue, for the
/// duration of one `curl_easy_perform`.
final class CurlTransfer {
    /// The largest body accepted, in bytes.
    let limit: Int
    private(set) var body: [UInt8] = []
    /// Set when the body would have passed `limit` and the transfer was aborted.
    private(set) var exceededLimit = false
    private var headerLines: [String] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Header fields of the final response, names lowercased, repeats joined with ", ".
    var headers: [String: String] {
        var fields: [String: String] = [:]
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = trimmed(line[line.index(after: colon)...], of: [" ", "\t"])
            if let existing = fields[name] {
                fields[name] = existing + ", " + value
            } else {
                fields[name] = value
            }
        }
        return fields
    }

    /// Appends a chunk of body; answers the byte count libcurl expects, or 0 to abort
    /// once the body would exceed `limit` (libcurl then fails with CURLE_WRITE_ERROR).
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        guard body.count + chunk.count <= limit else {
            exceededLimit = true
            return 0
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    /// Records one header line. A status line starts a new response (an interim
    /// `100 Continue` comes before the final one), so earlier lines are dropped.
    func receiveHeaderLine(_ chunk: UnsafeRawBufferPointer) -> Int {
        let line = trimmed(String(decoding: chunk, as: UTF8.self), of: ["\r\n", "\r", "\n", " "])
        if line.hasPrefix("HTTP/") {
            headerLines.removeAll()
        } else if !line.isEmpty {
            headerLines.append(line)
        }
        return chunk.count
    }

    /// Points libcurl's write and header callbacks at `self`. The caller keeps `self`
    /// alive until `curl_easy_perform` returns (the handle holds an unretained pointer).
    func install(on handle: UnsafeMutableRawPointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = cct_setopt_write_function(handle) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = cct_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = cct_setopt_header_function(handle) { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        _ = cct_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
    }
}

/// `text` without leading and trailing characters from `set`.
private func trimmed(_ text: some StringProtocol, of characters: Set<Character>) -> String {
    guard let first = text.firstIndex(where: { !characters.contains($0) }),
          let last = text.lastIndex(where: { !characters.contains($0) })
    else { return "" }
    return String(text[first...last])
}
