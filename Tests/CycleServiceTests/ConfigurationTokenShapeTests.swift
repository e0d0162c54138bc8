@testable import CycleService
import FoundationEssentials
import Testing

/// A token pasted where a path belongs is never repeated in the error that refuses it,
/// whatever shape the value has around the token.
@Suite struct ConfigurationTokenShapeTests {
    /// A made-up token in a JWT's shape (header, payload `{"iss":"abc"}`, random
    /// signature), put together here so that no token-shaped string is committed.
    static let jwt = ["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "eyJpc3MiOiJhYmMiLCJpYXQiOjE3MDAwMDAwMDB9",
                      "Xk3p9Qv2s-Jq0w_8LmZr4tN7yBf1cHd6aEoUiVgK2sA"].joined(separator: ".")
    static let key = "Zq8/3vK1+mWp7Lx0Tr2Ye5Nb9Hs4Gd6Fc3Aa1Bb2Cc3Dd4="

    static func tokenFileProblem(_ value: String) -> String {
        var config = Configuration(source: "c.json")
        config.homeAssistantURL = "http://ha:8123"
        config.tokenFile = value
        let error = #expect(throws: ConfigurationError.self) { try HomeAssistantAccess.resolve(config, environment: [:]) }
        return error?.message ?? ""
    }

    @Test(arguments: [
        jwt, "Bearer \(jwt)", "/run/secrets/\(jwt)", "~/\(jwt)", " \(jwt)\n",
        key, "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
    ])
    func aTokenPastedAsTheTokenFileIsNotRepeated(_ pasted: String) {
        let text = Self.tokenFileProblem(pasted)
        #expect(text.contains("looks like a token itself (not shown here)"), "\(text)")
        for part in pasted.split(whereSeparator: { $0 == "/" || $0.isWhitespace }) where part.count > 8 {
            #expect(!text.contains(part), "\(text)")
        }
    }

    @Test(arguments: ["/run/secrets/ha_token", "/config/cycletrack/home-assistant-access-token.txt", "token", "ha_token_2024",
                      "/tmp/cycletrack-store-9AC793DF-51FB-46FC-81CF-65903BE6BAA2/ha_token", "secrets/ha_token"])
    func aPathThatIsNoFileIsNamed(_ path: String) {
        #expect(Self.tokenFileProblem(path) == "c.json: 'home_assistant.token_file' names \(path), which does not exist; expected a file holding the token")
    }

    @Test func aTokenPastedAsTheCAFileIsNotRepeated() {
        let json = #"{"home_assistant": {"url": "http://ha:8123", "ca_file": "/etc/ssl/\#(Self.jwt)"}}"#
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationLoader.parse(Data(json.utf8), file: "c.json") }
        let text = error?.message ?? ""
        #expect(text.contains("'home_assistant.ca_file'") && text.contains("looks like a token (not shown here)"), "\(text)")
        #expect(!text.contains(Self.jwt))
    }
}
