/// Whether a configuration value looks like a secret pasted where a path belongs, so
/// that an error about the value can say so without repeating it.
///
/// A value looks like a token when one of its parts (split at `/` and at spaces) is a
/// JSON Web Token (`eyJ…` with two dots: HA's long-lived access tokens); when it is 32
/// characters or more without a `/` (no path at all); or when it is a base64 key of 32
/// characters or more (`+`, `/`, `=` among letters and digits) that doesn't begin like a
/// path does (`/`, `~`, `.`).
enum TokenShape {
    static func looksLikeToken(_ value: String) -> Bool {
        let trimmed = value.trimmedWhitespace()
        let parts = trimmed.split { $0 == "/" || $0.isWhitespace }
        return parts.contains(where: isJSONWebToken)
            || (!trimmed.contains("/") && trimmed.count >= 32)
            || isBase64Key(trimmed)
    }

    private static func isJSONWebToken(_ part: Substring) -> Bool {
        part.hasPrefix("eyJ") && part.split(separator: ".", omittingEmptySubsequences: false).count == 3
    }

    private static func isBase64Key(_ text: String) -> Bool {
        guard text.count >= 32, let first = text.first, !"/~.".contains(first) else { return false }
        let base64 = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+/=_-".unicodeScalars.contains(scalar))
        }
        return base64 && (text.contains("+") || text.contains("="))
    }
}
