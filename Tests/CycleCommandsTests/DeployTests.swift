@testable import CycleCommands
import CycleCore
@testable import CycleService
import Foundation
import Testing

/// Checks of the deployment files: the systemd unit (with `systemd-analyze verify`
/// where it exists), the add-on repository (`repository.yaml` and the add-on in
/// `cycletrack/`) and the add-on's options, which must be exactly cycletrack's
/// configuration keys because the add-on's options.json IS the config. The images
/// themselves are built and run by scripts/test-deploy.sh.

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // CycleCommandsTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
private let unitFile = repositoryRoot.appendingPathComponent("Deploy/systemd/cycletrack.service")
private let addOnDirectory = repositoryRoot.appendingPathComponent("cycletrack")
private let addOnConfigFile = addOnDirectory.appendingPathComponent("config.yaml")

/// The keys the add-on must offer: the config loader's own top-level and per-appliance
/// keys (nested ones are checked by name below), less `home_assistant`, which the add-on
/// sets itself (`http://supervisor/core` with `$SUPERVISOR_TOKEN`).
let expectedConfigKeys: Set<String> = ConfigurationLoader.knownKeys.filter { key in
    let parts = key.split(separator: ".")
    return key != "home_assistant" && (parts.count == 1 || (parts.count == 2 && parts[0] == "appliances[]"))
}
// Nested groups are left out of an appliance on purpose: the Supervisor refuses an
// appliance that omits a nested group, so every entry would have to carry them. The
// add-on's global `texts` covers a household's language (DOCS.md says so), and the
// entities go in the flat `<role>_entity` keys, which the loader also accepts.
.subtracting(["appliances[].texts", "appliances[].entities", "appliances[].power"])

// MARK: A tiny reader for the YAML subset the Deploy files use

/// Block mappings (`key: value`, `key:` + an indented block), block lists (`- item`,
/// `- key: value` starting a mapping), flow `[]`, `{}` and `[a, b]`, quoted or plain
/// scalars, whole-line and ` #` comments. Enough for cycletrack/config.yaml and translations/en.yaml;
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
        #expect(Set(appliance.keys.filter { $0.hasSuffix("_entity") }) == Set(Role.allCases.map { "\($0.rawValue)_entity" }))
        #expect(appliance["progress_steps"] == .list([.scalar("int(1,99)?")]), "a list of percentages")
        #expect(schema["texts"]?.keys == Set(Texts().entries.map(\.key)), "every text")
    }

    @Test("The add-on's defaults are the config's defaults")
    func addOnDefaultsMatchConfig() throws {
        let defaults = try ConfigurationLoader.parse(Data("{}".utf8), file: "defaults")
        #expect(try addOnDefaults() == [
            "database": "/data/cycletrack.sqlite",
            "history": "{}",
            "poll.active_seconds": String(Int(defaults.pollActiveSeconds)),
            "poll.idle_seconds": String(Int(defaults.pollIdleSeconds)),
            "supernotify.mobile_deliveries": "[\(defaults.mobileDeliveries.joined(separator: ", "))]",
            "supernotify.daily_push_limit": String(defaults.dailyPushLimit),
            "discover": String(defaults.discover),
            "entities": String(defaults.entities),
            "updates": defaults.updates.rawValue,
            "target": "[]",
            "texts": "{}",
            "quiet_hours": "",
            "presence_wait_hours": "12",
            "people": "[]",
            "appliances": "[]",
            // Not the loader's defaults on purpose: in the add-on the page is the ingress
            // page, reached only through the Supervisor's proxy on the add-on's network.
            "http.listen": "0.0.0.0",
            "http.port": String(defaults.httpPort),
            "http.allow": "[172.30.32.2]",
            // No price: no cost, as without the key.
            "price": "{}",
        ])
        #expect(defaults.httpListen == "127.0.0.1" && defaults.httpAllow.isEmpty)
        let ingressPort = try #require(try addOnConfig()["ingress_port"])
        #expect(ingressPort == .scalar(String(defaults.httpPort)), "ingress_port is the page's port")
    }

    @Test("An appliance entry needs only its id: every other key is optional, and nothing is nested")
    func applianceEntryNeedsOnlyID() throws {
        let appliance = try #require(try addOnConfig()["schema"]?["appliances"]?.items.first)
        expectOnlyRequired(appliance, "appliances", "id")
        #expect(appliance["id"] == .scalar("match(^[A-Za-z0-9_-]{1,50}$)"))

        // What such entries mean to the config loader: the flat entity keys and the list of
        // steps are the add-on's forms of `entities` and `progress_steps: {"at": [...]}`.
        let config = try ConfigurationLoader.parse(Data("""
            {"appliances": [{"id": "150c00853127708316a0fe06c9370d8b", "notify_progress": true},
                            {"id": "dishwasher", "operation_state_entity": "sensor.dishwasher_operation_state",
                             "door_entity": "sensor.dishwasher_door", "progress_steps": [25, 50, 75]},
                            {"id": "washer", "progress_steps": []}]}
            """.utf8), file: "options.json")
        #expect(config.appliances.map(\.settings.id) == ["150c00853127708316a0fe06c9370d8b", "dishwasher", "washer"])
        #expect(config.appliances[0].entities.isEmpty && config.appliances[0].settings.notifyProgress)
        #expect(config.appliances[1].entities == [.operationState: "sensor.dishwasher_operation_state",
                                                  .door: "sensor.dishwasher_door"])
        #expect(config.appliances[1].settings.steps == .at([25, 50, 75]))
        #expect(config.appliances[2].settings.steps == ProgressSteps.default, "an empty list keeps the default steps")
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse(
                Data(#"{"appliances": [{"id": "a", "entities": {"door": "sensor.a"}, "door_entity": "sensor.b"}]}"#.utf8),
                file: "options.json")
        }
    }

    @Test("The add-on's metadata: slug, version (the code's), arches, prebuilt images, HA API access")
    func addOnMetadata() throws {
        let config = try addOnConfig()
        #expect(config["slug"] == .scalar("cycletrack"))
        #expect(config["version"] == .scalar(CycletrackVersion.current), "config.yaml's version is the code's")
        #expect(config["arch"] == .list([.scalar("aarch64"), .scalar("amd64")]))
        #expect(config["image"] == .scalar("ghcr.io/cycletrack/cycletrack-addon-{arch}"))
        #expect(config["url"] == .scalar("https://github.com/cycletrack/cycletrack"))
        #expect(config["homeassistant_api"] == .scalar("true"))
        #expect(config["init"] == .scalar("false"))
        let changelog = try String(contentsOf: addOnDirectory.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("## \(CycletrackVersion.current)"), "the changelog names the add-on's version")

        let build = try MiniYAML.parse(String(contentsOf: addOnDirectory.appendingPathComponent("build.yaml"), encoding: .utf8))
        #expect(build["build_from"]?.keys == ["aarch64", "amd64"])
        let dockerfile = try String(contentsOf: addOnDirectory.appendingPathComponent("Dockerfile"), encoding: .utf8)
        #expect(dockerfile.contains("ARG BUILD_FROM\n") && dockerfile.contains("FROM ${BUILD_FROM}\n"))

        let repository = try MiniYAML.parse(String(contentsOf: repositoryRoot.appendingPathComponent("repository.yaml"),
                                                   encoding: .utf8))
        #expect(repository["name"] != nil && repository["maintainer"] != nil)
        #expect(repository["url"] == config["url"])
        #expect(FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent("LICENSE").path))
        for file in ["DOCS.md", "README.md", "apparmor.txt", "run.sh"] {
            #expect(FileManager.default.fileExists(atPath: addOnDirectory.appendingPathComponent(file).path), "\(file)")
        }
    }

    @Test("The add-on's icon and logo are PNGs of the sizes the store shows")
    func addOnImages() throws {
        for (file, width, height) in [("icon.png", 256, 256), ("logo.png", 250, 100)] {
            let bytes = [UInt8](try Data(contentsOf: addOnDirectory.appendingPathComponent(file)))
            #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(file) is a PNG")
            guard bytes.count > 24 else {
                Issue.record("\(file) is too short")
                continue
            }
            let readWidth = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let readHeight = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(readWidth == width && readHeight == height, "\(file) is \(readWidth)x\(readHeight)")
        }
    }

    @Test("Every option has a name and a description in translations/en.yaml")
    func addOnTranslations() throws {
        let translations = try MiniYAML.parse(String(
            contentsOf: addOnDirectory.appendingPathComponent("translations/en.yaml"), encoding: .utf8))
        let configuration = try #require(translations["configuration"])
        let schema = try #require(try addOnConfig()["schema"])
        func check(_ schema: MiniYAML, _ names: MiniYAML?, _ path: String) {
            for key in schema.keys.sorted() {
                let entry = names?[key]
                let name = entry?["name"]?.flatText ?? ""
                let description = entry?["description"]?.flatText ?? ""
                #expect(!name.isEmpty && !description.isEmpty, "\(path)\(key) has no name or description")
                let nested: MiniYAML? = if case .list(let items)? = schema[key] { items.first } else { schema[key] }
                if let nested, case .map(let map) = nested, !map.isEmpty {
                    check(nested, entry?["fields"], "\(path)\(key).")
                }
            }
        }
        check(schema, configuration, "")
        #expect(configuration.keys == schema.keys, "no translations for options that don't exist")
    }

    @Test("cycletrack --version prints the version config.yaml carries")
    func versionCommand() throws {
        #expect(try addOnConfig()["version"] == .scalar(CycletrackVersion.current))
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while ["Contents", "MacOS"].contains(directory.lastPathComponent) || directory.lastPathComponent.hasSuffix(".xctest") {
            directory = directory.deletingLastPathComponent()
        }
        let binary = directory.appendingPathComponent("cycletrack")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                     "no cycletrack binary beside the tests at \(binary.path): run swift build --build-tests")
        for argument in ["--version", "version"] {
            let process = Process()
            process.executableURL = binary
            process.arguments = [argument]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(said == "cycletrack \(CycletrackVersion.current)\n")
        }
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

    @Test("The add-on's start script and the deploy and release scripts are valid shell")
    func scriptsParse() throws {
        for (shell, script) in [("/bin/sh", "cycletrack/run.sh"), ("/bin/bash", "scripts/test-deploy.sh"),
                                ("/bin/bash", "scripts/release.sh")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: shell)
            process.arguments = ["-n", repositoryRoot.appendingPathComponent(script).path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(shell) -n \(script)")
        }
        let run = try String(contentsOf: addOnDirectory.appendingPathComponent("run.sh"), encoding: .utf8)
        #expect(run.contains("run --config \"$CONFIG\""))
        #expect(run.contains("SUPERVISOR_TOKEN"))
    }
}
