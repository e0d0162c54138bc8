/// Writing the few JSON shapes the Home Assistant stand-in answers with, by hand, so
/// that the output is exactly what HA's templates and endpoints would produce.
enum StandInJSON {
    /// `value` as a JSON string literal, or `null`.
    static func string(_ value: String?) -> String {
        guard let value else { return "null" }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A list of strings as a JSON array, or `null`.
    static func strings(_ values: [String]?) -> String {
        guard let values else { return "null" }
        return "[" + values.map { string($0) }.joined(separator: ", ") + "]"
    }

    /// Every double-quoted string in `text` that has the shape of an HA entity id
    /// (`domain.object_id`, lowercase letters, digits and underscores), in order.
    static func quotedEntityIDs(in text: String) -> [String] {
        var ids: [String] = []
        var current: String?
        for character in text {
            if character == "\"" {
                if let candidate = current, isEntityID(candidate) { ids.append(candidate) }
                current = current == nil ? "" : nil
            } else if current != nil {
                current?.append(character)
            }
        }
        return ids
    }

    static func isEntityID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { part in
            !part.isEmpty && part.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        }
    }
}
