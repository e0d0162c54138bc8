import CycleCore
import FoundationEssentials

/// The session's text helpers: what a message looks like in an error, and the elements
/// of HA's coalesced messages.
extension HomeAssistantSession {
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func redacting(_ token: String, in text: String) -> String {
        token.isEmpty ? text : text.replacing(token, with: "<redacted>")
    }

    /// At most 120 characters on one line, without the token.
    static func excerpt(_ text: String, hiding token: String) -> String {
        let line = String(redacting(token, in: text).map { $0.isNewline ? " " : $0 })
        if line.isEmpty { return "(empty message)" }
        return line.count > 120 ? String(line.prefix(120)) + "…" : line
    }

    /// The top-level elements of a JSON array as texts, or nil when `text` isn't one.
    static func splitArray(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        guard let open = bytes.firstIndex(where: { !isSpace($0) }), bytes[open] == UInt8(ascii: "[") else { return nil }
        var parts: [String] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start = open + 1
        for index in (open + 1)..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: "]") where depth > 0: depth -= 1
            case UInt8(ascii: ","), UInt8(ascii: "]"):
                guard depth == 0 else { continue }
                let part = String(decoding: bytes[start..<index], as: UTF8.self)
                if !part.allSatisfy({ $0.isWhitespace }) { parts.append(part) }
                start = index + 1
                if byte == UInt8(ascii: "]") { return parts }
            default: break
            }
        }
        return nil
    }
}
