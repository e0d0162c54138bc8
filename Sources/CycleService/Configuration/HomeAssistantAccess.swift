import CycleHistory
import HomeAssistantAPI
import CycleCore
import FoundationEssentials

/// Where Home Assistant is and the token to reach it with. The token comes from
/// `home_assistant.token_file`, then `$HA_TOKEN`, then `$SUPERVISOR_TOKEN` (inside the
/// add-on, where the URL defaults to `http://supervisor/core`). It is never logged,
/// stored or echoed: `description` names only where it came from.
public struct HomeAssistantAccess: Sendable, CustomStringConvertible {
    public var url: String
    public let token: String
    /// "token_file /run/secrets/ha_token", "$HA_TOKEN" or "$SUPERVISOR_TOKEN".
    public var tokenSource: String

    public var description: String { "\(url) (token from \(tokenSource))" }

    public static func resolve(_ config: Configuration, environment: [String: String]) throws(ConfigurationError) -> HomeAssistantAccess {
        let token: String
        let source: String
        if let file = config.tokenFile {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw .config("\(config.source): 'home_assistant.token_file' \(unreadable(file))")
            }
            token = String(decoding: data, as: UTF8.self).trimmedWhitespace()
            guard !token.isEmpty else {
                throw .config("\(config.source): 'home_assistant.token_file' names \(file), which is empty")
            }
            source = "token_file \(file)"
        } else if let value = environment["HA_TOKEN"], !value.isEmpty {
            token = value.trimmedWhitespace()
            source = "$HA_TOKEN"
        } else if let value = environment["SUPERVISOR_TOKEN"], !value.isEmpty {
            token = value.trimmedWhitespace()
            source = "$SUPERVISOR_TOKEN"
        } else {
            throw .config("\(config.source): no Home Assistant token: set 'home_assistant.token_file', or $HA_TOKEN (a long-lived access token from your HA profile page)")
        }
        guard token.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }) else {
            throw .config("the token from \(source) contains spaces or control characters; expected one line of text")
        }
        let url: String
        if let configured = config.homeAssistantURL {
            url = configured
        } else if source == "$SUPERVISOR_TOKEN" {
            url = "http://supervisor/core"
        } else {
            throw .config("\(config.source): 'home_assistant.url' is required, e.g. \"http://homeassistant.local:8123\"")
        }
        var trimmed = url
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return HomeAssistantAccess(url: trimmed, token: token, tokenSource: source)
    }

    /// Why `token_file` names nothing readable, without ever repeating a value that
    /// looks like a token pasted in place of a path.
    static func unreadable(_ file: String) -> String {
        var isFolder = false
        let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
        if !exists, TokenShape.looksLikeToken(file) {
            return "should name a file holding the token, but its value is no file and looks like a token itself (not shown here); "
                + "put the token in a file and name that file, or set $HA_TOKEN"
        }
        if !exists { return "names \(file), which does not exist; expected a file holding the token" }
        if isFolder { return "names \(file), which is a folder; expected a file holding the token" }
        return "names \(file), which cannot be read (check its owner and permissions); expected a file holding the token"
    }
}
