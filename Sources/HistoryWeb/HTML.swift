/// Text made safe for HTML (and the SVG inside it): every character with a meaning in
/// markup or an attribute value is written as an entity.
enum HTML {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A query-string value: everything but unreserved characters percent-encoded.
    static func queryValue(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return encoded
    }
}
