import Foundation
import Testing
@testable import CycleTrack

/// Checks of the files under Deploy/: the systemd unit (with `systemd-analyze verify`
/// where it exists) and the Home Assistant add-on's options, which must be exactly
/// cycletrack's configuration keys because the add-on's options.json IS the config.

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // CycleTrackTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
private let unitFile = repositoryRoot.appendingPathComponent("Deploy/systemd/cycletrack.service")
private let addOnConfigFile = repositoryRoot.appendingPathComponent("Deploy/homeassistant-addon/config.yaml")

/// The top-level and per-appliance keys of INTERFACES.md's configuration example,
/// less `home_assistant` (inside the add-on the url and token come from the
/// Supervisor). Appliance keys are written `appliances[].<key>`.
/// The integrator must replace this list with the config loader's own key list, so
/// that the add-on's options can't drift from what the loader accepts.
/// The keys the add-on must offer: the config loader's own top-level and per-appliance
/// keys (nested ones are checked by name below), less `home_assistant`, which the add-on
/// sets itself (`http://supervisor/core` with `$SUPERVISOR_TOKEN`).
let expectedConfigKeys: Set<String> = ConfigurationLoader.knownKeys.filter { key in
    let parts = key.split(separator: ".")
    return key != "home_assistant" && (parts.count == 1 || (parts.count == 2 && parts[0] == "appliances[]"))
}
// Per-appliance `texts` is left out of the add-on on purpose: the Supervisor refuses an
// appliance that omits a nested group, so every appliance would need `texts: {}`. The
// add-on's global `texts` covers a household's language (DOCS.md says so).
.subtracting(["appliances[].texts"])

// MARK: A tiny reader for the YAML subset the Deploy files use

/// Block mappings (`key: value`, `key:` + an indented block), block lists (`- item`,
/// `- key: value` starting a mapping), flow `[]`, `{}` and `[a, b]`, quoted or plain
/// scalars, whole-line and ` #` comments. Enough for Deploy/homeassistant-addon/config.yaml;
/// anything else is an error rather than a guess.
indirect enum MiniYAML: Equatable {
    case scalar(String)
    case list([MiniYAML])
    case map([String: MiniYAML])

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ text: String) throws -> MiniYAML {
        var lines: [(indent: Int, text: String)] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(raw)
            if let comment = line.range(of: " #") { line = String(line[..<comment.lowerBound]) }
            let content = line.drop { $0 == " " }
            if content.isEmpty || content.hasPrefix("#") { continue }
            if content.hasPrefix("\t") { throw ParseError(description: "tab indentation: \(raw)") }
            lines.append((line.count - content.count, String(content).trimmingCharacters(in: .whitespaces)))
        }
        var index = 0
        let node = try parseBlock(&lines, &index, indent: lines.first?.indent ?? 0)
        guard index == lines.count else { throw ParseError(description: "unexpected line: \(lines[index].text)") }
        return node
    }

    private static func parseBlock(_ lines: inout [(indent: Int, text: String)], _ index: inout Int, indent: Int) throws -> MiniYAML {
        if lines[index].text == "-" || lines[index].text.hasPrefix("- ") {
            var items: [MiniYAML] = []
            while index < lines.count, lines[index].indent == indent,
                  lines[index].text == "-" || lines[index].text.hasPrefix("- ") {
                let rest = String(lines[index].text.dropFirst(2)).trimmingCharacters(in: .whitespaces)
                if rest.contains(": ") || rest.hasSuffix(":") {
                    // "- key: value" starts a mapping whose keys sit two columns in.
                    lines[index] = (indent + 2, rest)
                    items.append(try parseBlock(&lines, &index, indent: indent + 2))
                } else {
                    items.append(try scalarOrFlow(rest))
                    index += 1
                }
            }
            return .list(items)
        }
        var map: [String: MiniYAML] = [:]
        while index < lines.count, lines[index].indent == indent {
            let text = lines[index].text
            guard let colon = text.range(of: ": ") ?? (text.hasSuffix(":") ? text.index(before: text.endIndex)..<text.endIndex : nil) else {
                throw ParseError(description: "expected 'key: value': \(text)")
            }
            let key = unquote(String(text[..<colon.lowerBound]))
            let value = String(text[colon.upperBound...]).trimmingCharacters(in: .whitespaces)
            guard map[key] == nil else { throw ParseError(description: "duplicate key \(key)") }
            index += 1
            if !value.isEmpty {
                map[key] = try scalarOrFlow(value)
            } else if index < lines.count, lines[index].indent > indent {
                map[key] = try parseBlock(&lines, &index, indent: lines[index].indent)
            } else {
                map[key] = .scalar("")
            }
        }
        if index < lines.count, lines[index].indent > indent {
            throw ParseError(description: "unexpected indentation: \(lines[index].text)")
        }
        return .map(map)
    }

    private static func scalarOrFlow(_ text: String) throws -> MiniYAML {
        if text == "[]" { return .list([]) }
        if text == "{}" { return .map([:]) }
        if text.hasPrefix("[") && text.hasSuffix("]") {
            let inner = text.dropFirst().dropLast()
            return .list(inner.split(separator: ",").map { .scalar(unquote($0.trimmingCharacters(in: .whitespaces))) })
        }
        if text.hasPrefix("{") { throw ParseError(description: "flow mappings other than {} are not read: \(text)") }
        return .scalar(unquote(text))
    }

    private static func unquote(_ text: String) -> String {
        for quote in ["\"", "'"] where text.count >= 2 && text.hasPrefix(quote) && text.hasSuffix(quote) {
            return String(text.dropFirst().dropLast())
        }
        return text
    }

    subscript(key: String) -> MiniYAML? {
        if case .map(let map) = self { return map[key] }
        return nil
    }

    var keys: Set<String> {
        if case .map(let map) = self { return Set(map.keys) }
        return []
    }

    var items: [MiniYAML] {
        if case .list(let items) = self { return items }
        return []
    }

    /// A readable flat form: scalars as they are, lists as `[a, b]`, maps as `{}` when empty.
    var flatText: String {
        switch self {
        case .scalar(let text): return text
        case .list(let items): return "[" + items.map(\.flatText).joined(separator: ", ") + "]"
        case .map(let map): return map.isEmpty ? "{}" : "{" + map.keys.sorted().joined(separator: ", ") + "}"
        }
    }
}

private func addOnConfig() throws -> MiniYAML {
    try MiniYAML.parse(String(contentsOf: addOnConfigFile, encoding: .utf8))
}

/// The add-on's option keys, from its `schema:`: the top-level keys and, written
/// `appliances[].<key>`, the keys of an appliance object.
func addOnOptionKeys() throws -> Set<String> {
    let schema = try #require(try addOnConfig()["schema"], "config.yaml has no schema")
    let appliance = try #require(schema["appliances"]?.items.first, "schema.appliances is not a list of objects")
    return schema.keys.union(appliance.keys.map { "appliances[].\($0)" })
}

/// The add-on's default options, flattened to dotted keys (`poll.active_seconds`)
/// with their values as text (lists as `[a, b]`, empty objects as `{}`).
func addOnDefaults() throws -> [String: String] {
    let options = try #require(try addOnConfig()["options"], "config.yaml has no options")
    var flat: [String: String] = [:]
    func walk(_ node: MiniYAML, _ path: String) {
        if case .map(let map) = node, !map.isEmpty {
            for (key, child) in map { walk(child, path.isEmpty ? key : "\(path).\(key)") }
        } else {
            flat[path] = node.flatText
        }
    }
    walk(options, "")
    return flat
}

// MARK: Tests

@Suite("Deploy files")
struct DeployTests {
    @Test("The tiny YAML reader reads the subset it claims, and refuses what it doesn't")
    func miniYAMLReader() throws {
        let parsed = try MiniYAML.parse("""
            # comment
            name: "cycle track"   # trailing comment
            arch:
              - amd64
              - aarch64
            empty: []
            none: {}
            flow: [a, 'b']
            nested:
              deeper:
                value: int(1,3600)?
            objects:
              - id: match(^#[0-9]{2}$)
                entities:
                  operation_state: str
              - id: second
            """)
        #expect(parsed["name"] == .scalar("cycle track"))
        #expect(parsed["arch"] == .list([.scalar("amd64"), .scalar("aarch64")]))
        #expect(parsed["empty"] == .list([]))
        #expect(parsed["none"] == .map([:]))
        #expect(parsed["flow"] == .list([.scalar("a"), .scalar("b")]))
        #expect(parsed["nested"]?["deeper"]?["value"] == .scalar("int(1,3600)?"))
        let objects = try #require(parsed["objects"]?.items)
        #expect(objects.count == 2)
        #expect(objects.first?["id"] == .scalar("match(^#[0-9]{2}$)"))
        #expect(objects.first?["entities"]?["operation_state"] == .scalar("str"))
        #expect(objects.last?.keys == ["id"])
        #expect(throws: MiniYAML.ParseError.self) { try MiniYAML.parse("a: 1\n  b: 2\n") }
        #expect(throws: MiniYAML.ParseError.self) { try MiniYAML.parse("a: 1\na: 2\n") }
        #expect(throws: MiniYAML.ParseError.self) { try MiniYAML.parse("a: {b: 1}\n") }
    }

    @Test("The add-on's options are exactly cycletrack's config keys (less home_assistant)")
    func addOnOptionKeysMatchConfig() throws {
        let keys = try addOnOptionKeys()
        #expect(keys.subtracting(expectedConfigKeys).isEmpty, "options the config loader doesn't know")
        #expect(expectedConfigKeys.subtracting(keys).isEmpty, "config keys the add-on doesn't offer")
        #expect(!keys.contains("home_assistant"))

        let config = try addOnConfig()
        let schema = try #require(config["schema"])
        // Every top-level option has a default, so the Supervisor never finds a group missing.
        #expect(try #require(config["options"]).keys == schema.keys)
        let appliance = try #require(schema["appliances"]?.items.first)
        #expect(appliance["entities"]?.keys == [
            "operation_state", "progress", "finish_time", "program", "door", "temperature", "power", "energy",
        ])
        #expect(appliance["entities"]?["operation_state"] == .scalar("str"), "operation_state is required")
        #expect(appliance["progress_steps"]?.keys == ["step", "fine_from", "fine_step", "at"])
        #expect(schema["texts"]?.keys == [
            "started", "started_program", "paused", "action_required", "running", "percent_complete",
            "finished", "aborted", "failed", "lost", "done_in", "done_in_no_program", "hours", "minutes",
        ])
    }

    @Test("The add-on's defaults are the config's defaults")
    func addOnDefaultsMatchConfig() throws {
        let defaults = try ConfigurationLoader.parse(Data("{}".utf8), file: "defaults")
        #expect(try addOnDefaults() == [
            "database": "/data/cycletrack.sqlite",
            "poll.active_seconds": String(Int(defaults.pollActiveSeconds)),
            "poll.idle_seconds": String(Int(defaults.pollIdleSeconds)),
            "supernotify.mobile_deliveries": "[\(defaults.mobileDeliveries.joined(separator: ", "))]",
            "supernotify.daily_push_limit": String(defaults.dailyPushLimit),
            "discover": String(defaults.discover),
            "target": "[]",
            "texts": "{}",
            "appliances": "[]",
        ])
    }

    @Test("The add-on's metadata: slug, version, arches, HA API access")
    func addOnMetadata() throws {
        let config = try addOnConfig()
        #expect(config["slug"] == .scalar("cycletrack"))
        #expect(config["version"] == .scalar("0.1.0"))
        #expect(config["arch"] == .list([.scalar("amd64"), .scalar("aarch64")]))
        #expect(config["homeassistant_api"] == .scalar("true"))
        #expect(config["init"] == .scalar("false"))
        let changelog = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Deploy/homeassistant-addon/CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("## 0.1.0"), "the changelog names the add-on's version")
    }

    @Test("The systemd unit keeps its hardening and its credential wiring")
    func unitDirectives() throws {
        let text = try String(contentsOf: unitFile, encoding: .utf8)
        var directives: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && line.contains("=") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            directives[String(parts[0]), default: []].append(String(parts[1]))
        }
        let required: [String: String] = [
            "DynamicUser": "yes", "StateDirectory": "cycletrack", "ProtectSystem": "strict", "ProtectHome": "yes",
            "PrivateTmp": "yes", "NoNewPrivileges": "yes", "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
            "MemoryMax": "64M", "Restart": "on-failure", "LoadCredential": "ha_token:/etc/cycletrack/ha_token",
            "Environment": "CYCLETRACK_CONFIG=/etc/cycletrack/cycletrack.json",
            "ExecStart": "/usr/local/bin/cycletrack run --db ${STATE_DIRECTORY}/cycletrack.sqlite",
        ]
        for (key, value) in required {
            #expect(directives[key]?.contains(value) == true, "\(key)=\(value)")
        }
        #expect(directives["SystemCallFilter"]?.contains("@system-service") == true)
        #expect(text.contains("/run/credentials/cycletrack.service/ha_token"), "the unit says where token_file must point")
    }

    @Test(
        "systemd-analyze verify accepts the unit",
        // Skipped where systemd isn't installed; systemd 252 is on the project's machines.
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
                 "systemd-analyze is not installed")
    )
    func systemdAnalyzeVerify() throws {
        // verify insists that ExecStart's binary exists: check a copy pointing at /bin/true.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cycletrack-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let unit = try String(contentsOf: unitFile, encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/cycletrack "))
        let copy = directory.appendingPathComponent("cycletrack.service")
        try unit.replacingOccurrences(of: "ExecStart=/usr/local/bin/cycletrack ", with: "ExecStart=/bin/true ")
            .write(to: copy, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        process.arguments = ["verify", "--man=no", copy.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "systemd-analyze verify: \(said)")
        // It warns (unknown keys, unparsable values) on stderr with status 0: none allowed.
        #expect(said.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "systemd-analyze verify: \(said)")
    }

    @Test("The add-on's start script and packager are valid shell")
    func scriptsParse() throws {
        for (shell, script) in [("/bin/sh", "Deploy/homeassistant-addon/run.sh"),
                                ("/bin/bash", "Deploy/homeassistant-addon/package.sh")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: shell)
            process.arguments = ["-n", repositoryRoot.appendingPathComponent(script).path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(shell) -n \(script)")
        }
        let run = try String(contentsOf: repositoryRoot.appendingPathComponent("Deploy/homeassistant-addon/run.sh"),
                             encoding: .utf8)
        #expect(run.contains("run --config \"$CONFIG\""))
        #expect(run.contains("SUPERVISOR_TOKEN"))
    }
}
