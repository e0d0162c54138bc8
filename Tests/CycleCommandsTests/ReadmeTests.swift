@testable import CycleCommands
@testable import CycleService
import Foundation
import FoundationEssentials
import Testing

/// The README is a short read for users; docs/COMMANDS.md shows what the commands
/// really print and docs/CONFIGURATION.md configurations that load.
/// (`scripts/check-readme.sh` runs their commands.)
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static let readme = text("README.md")
    static let commands = text("docs/COMMANDS.md")
    static let configuration = text("docs/CONFIGURATION.md")
    static let userPages = [readme, commands, configuration, text("docs/GUIDE.md")]

    /// The contents of the fenced blocks of `language` in `document`.
    static func blocks(_ language: String, in document: String) -> [String] {
        var found: [String] = []
        var current: [Substring]?
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                found.append(current.map { $0.joined(separator: "\n") + "\n" } ?? "")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return found
    }

    @Test(arguments: CommandLineTool.commands)
    func eachCommandsHelpIsTheOneDocsCommandsShows(command: String) throws {
        let help = try #require(CommandLineTool.help(for: command))
        #expect(Self.blocks("text", in: Self.commands).contains(help), "docs/COMMANDS.md lacks the current `cycletrack help \(command)`")
        #expect(Self.commands.contains("## \(command)\n"))
        #expect(Self.readme.contains("| `cycletrack \(command)` |"), "the README's table of commands lacks \(command)")
    }

    @Test func everyJSONExampleIsAConfigurationThatLoads() throws {
        let examples = Self.blocks("json", in: Self.readme) + Self.blocks("json", in: Self.configuration)
        #expect(examples.count >= 3)
        for example in examples {
            #expect(throws: Never.self) { try ConfigurationLoader.parse(Data(example.utf8), file: "README.md") }
        }
    }

    @Test func itIsWrittenForUsers() {
        for page in Self.userPages {
            #expect(!page.isEmpty)
            for word in ["the brief", "the spec", "missed"] {
                #expect(!page.lowercased().contains(word), "\(word)")
            }
        }
    }

    /// Five minutes: under 250 lines, naming the two commands for a fresh Debian machine,
    /// the second of which is exactly what CI runs.
    @Test func theREADMEIsAShortReadWithTheTwoFirstCommands() {
        #expect(Self.readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
        #expect(Self.readme.contains("    ./scripts/demo.sh\n"))
        #expect(Self.readme.contains("    ./scripts/test.sh\n"))
        let ci = Self.text(".ci/run").split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(ci.contains("./scripts/test.sh"))
    }
}
