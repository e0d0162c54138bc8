@testable import CycleService
import FoundationEssentials
import TestSupport
import Testing

/// The configuration's errors say where: line and column for JSON syntax, the key
/// for a duplicate, a hint for an inline token, and never a token's text.
@Suite struct ConfigurationErrorTests {
    private func message(_ json: String) -> String? {
        let error = #expect(throws: ConfigurationError.self) { try ConfigurationLoader.parse(Data(json.utf8), file: "c.json") }
        #expect(error?.kind == .invalid)
        return error?.message
    }

    static let syntax: [(String, String)] = [
        ("{\n  \"poll\": {\"active_seconds\": 10,}\n}", "c.json: not valid JSON at line 2, column 33: expected another key after ',', found '}' (a trailing comma is not allowed in JSON)"),
        ("{\n  \"discover\": true\n  \"target\": []\n}", "c.json: not valid JSON at line 3, column 3: expected ',' or '}' after the value of \"discover\", found '\"target\":'"),
        ("{\"database\": 'x.sqlite'}", "c.json: not valid JSON at line 1, column 14: expected a value, found a single quote: JSON strings take double quotes"),
        ("{\"appliances\": [{\"id\": \"a\"},]}", "c.json: not valid JSON at line 1, column 29: expected another item after ',', found ']' (a trailing comma is not allowed in JSON)"),
        ("{\"discover\": tru}", "c.json: not valid JSON at line 1, column 14: expected a value, found 'tru}'"),
        ("{\"poll\": {\"idle_seconds\": 07}}", "c.json: not valid JSON at line 1, column 27: a number may not start with 0 (write 7, not 07)"),
        ("{\"texts\": {\"finished\": \"done\n\"}}", "c.json: not valid JSON at line 1, column 29: expected '\"' to end the string before the end of the line"),
        ("{\"discover\": true", "c.json: not valid JSON at line 1, column 18: expected ',' or '}' to go on with the object, found the end of the file"),
        ("{} {}", "c.json: not valid JSON at line 1, column 4: expected the end of the document after the value, found '{}'"),
        ("", "c.json: not valid JSON at line 1, column 1: expected a value, found the end of the file"),
    ]

    @Test(arguments: syntax)
    func syntaxErrorsGiveLineAndColumn(json: String, expected: String) {
        #expect(message(json) == expected)
    }

    @Test func aKeyGivenTwiceIsAnError() {
        #expect(message("{\n  \"database\": \"a.sqlite\",\n  \"database\": \"b.sqlite\"\n}")
                == "c.json: line 3, column 3: the key 'database' appears twice in one object (first at line 2, column 3); give it once")
        #expect(message(#"{"appliances": [{"id": "a", "name": "A", "name": "B"}]}"#)
                == "c.json: line 1, column 42: the key 'appliances[0].name' appears twice in one object (first at line 1, column 29); give it once")
        // The same key in two objects is fine.
        #expect(throws: Never.self) { try ConfigurationLoader.parse(Data(#"{"appliances": [{"id": "a"}, {"id": "b"}]}"#.utf8), file: "c.json") }
    }

    @Test func unicodeAndEscapesReadAsJSONSays() throws {
        let config = try ConfigurationLoader.parse(Data(#"{"texts": {"finished": "{name} fertig \u00e9\ud83d\ude00 \"ok\"\n"}}"#.utf8), file: "c.json")
        #expect(config.texts.finished == "{name} fertig é😀 \"ok\"\n")
    }

    @Test func anInlineTokenIsPointedToTokenFileAndNeverRepeated() {
        let secret = "eyJhbGciOiJIUzI1NiJ9.secret-\(UInt64.random(in: 1...UInt64.max))"
        for json in [#"{"home_assistant": {"url": "http://ha:8123", "token": "\#(secret)"}}"#, #"{"token": "\#(secret)"}"#] {
            let text = message(json) ?? ""
            #expect(text.contains("'home_assistant.token_file'") && text.contains("$HA_TOKEN"), "\(text)")
            #expect(text.contains("token' is not read"))
            #expect(!text.contains(secret))
        }
    }

    @Test func aTokenFileThatIsNoFileIsNamedButATokenPastedThereIsNot() throws {
        let files = try StoreFixture()
        var config = Configuration(source: "c.json")
        config.homeAssistantURL = "http://ha:8123"
        func problem(_ tokenFile: String) -> String {
            config.tokenFile = tokenFile
            let error = #expect(throws: ConfigurationError.self) { try HomeAssistantAccess.resolve(config, environment: [:]) }
            return error?.message ?? ""
        }
        let pasted = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJhYmMifQ.\(UInt64.random(in: 1...UInt64.max))"
        let text = problem(pasted)
        #expect(!text.contains(pasted))
        #expect(text.contains("looks like a token itself (not shown here)"))
        #expect(problem(files.directory) == "c.json: 'home_assistant.token_file' names \(files.directory), which is a folder; expected a file holding the token")
        #expect(problem(files.path("nope")) == "c.json: 'home_assistant.token_file' names \(files.path("nope")), which does not exist; expected a file holding the token")
    }
}
