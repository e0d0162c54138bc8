import FoundationEssentials
import Foundation
import Testing
@testable import CycleService
@testable import CycleCommands

/// The README shows what the commands really print and configurations that load.
/// (`scripts/check-readme.sh` runs its commands.)
@Suite struct ReadmeTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// The contents of the README's fenced blocks of `language`.
    static func blocks(_ language: String) -> [String] {
        var found: [String] = []
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
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
    func eachCommandsHelpIsTheOneTheREADMEShows(command: String) throws {
        let help = try #require(CommandLineTool.help(for: command))
        #expect(Self.blocks("text").contains(help), "README.md lacks the current `cycletrack help \(command)`")
        #expect(Self.readme.contains("### \(command)\n"))
    }

    @Test func everyJSONExampleIsAConfigurationThatLoads() throws {
        let examples = Self.blocks("json")
        #expect(examples.count >= 3)
        for example in examples {
            #expect(throws: Never.self) { try ConfigurationLoader.parse(Data(example.utf8), file: "README.md") }
        }
    }

    @Test func itIsWrittenForUsers() {
        for word in ["the brief", "the spec", "missed"] {
            #expect(!Self.readme.lowercased().contains(word), "\(word)")
        }
    }
}
