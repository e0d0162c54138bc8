import CycleCore
@testable import CycleService
import Foundation
import Testing

/// The files written by hand beside the declared appliance settings (`ApplianceSetting.all`)
/// checked against it: the add-on's option types (cycletrack/config.yaml), and the
/// integration's name and icon of every entity a tunable setting makes (strings.json, its
/// English translation, icons.json). The integration makes the entities themselves from the
/// declaration the API serves (docs/API.md, `appliance_settings`).
@Suite struct DeclaredSettingsFilesTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let integration = root.appendingPathComponent("custom_components/cycletrack")

    private static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: integration.appendingPathComponent(path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path) is not an object")
    }

    /// The entity platform a tunable setting makes in Home Assistant; nil: none, the
    /// integration's options set it (an appliance id: `dryer`).
    static func platform(_ setting: ApplianceSetting) -> String? {
        guard setting.hasEntity else { return nil }
        return setting.kind == .flag ? "switch" : "number"
    }

    /// The tunable settings the integration's options set, rather than an entity.
    static let optionsSettings = ApplianceSetting.tunables.filter { platform($0) == nil }.map(\.key)

    @Test(arguments: ApplianceSetting.all.filter(\.configurable).map(\.key))
    func theAddOnOffersTheSettingWithItsType(key: String) throws {
        let setting = try #require(ApplianceSetting.named(key))
        let config = try MiniYAML.parse(String(contentsOf: Self.root.appendingPathComponent("cycletrack/config.yaml"), encoding: .utf8))
        let appliance = try #require(config["schema"]?["appliances"]?.items.first)
        #expect(appliance[key] == .scalar(setting.addOnType), "cycletrack/config.yaml: schema.appliances[].\(key)")
    }

    @Test(arguments: ApplianceSetting.all.filter(\.configurable).map(\.key))
    func theConfigurationPageListsTheSettingWithItsDefault(key: String) throws {
        let setting = try #require(ApplianceSetting.named(key))
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/CONFIGURATION.md"), encoding: .utf8)
        let row = page.split(separator: "\n").first { $0.hasPrefix("| `\(key)` | ") }
        #expect(row != nil, "docs/CONFIGURATION.md, \"Every key\": no row for `\(key)`")
        if let value = setting.defaultValue {
            let shown = ApplianceSetting.json(value).compactJSON()
            #expect(row?.hasPrefix("| `\(key)` | `\(shown)` |") == true, "docs/CONFIGURATION.md: `\(key)`'s default is \(shown)")
        }
    }

    @Test(arguments: ApplianceSetting.tunables.map(\.key))
    func theDocsSayTheSettingIsTunable(key: String) throws {
        let setting = try #require(ApplianceSetting.named(key))
        let api = try String(contentsOf: Self.root.appendingPathComponent("docs/API.md"), encoding: .utf8)
        #expect(api.split(separator: "\n").contains { $0.hasPrefix("| ") && $0.contains("`\(key)`") },
                "docs/API.md, \"Settings\": no row for `\(key)`")
        let strings = try Self.json("strings.json")["entity"] as? [String: [String: [String: Any]]]
        guard let platform = Self.platform(setting) else { return }
        let name = try #require(strings?[platform]?[setting.entityKey]?["name"] as? String)
        let integration = try String(contentsOf: Self.root.appendingPathComponent("docs/INTEGRATION.md"), encoding: .utf8)
        #expect(integration.split(separator: "\n").contains { $0.hasPrefix("| ") && $0.contains(name) },
                "docs/INTEGRATION.md: the entity table doesn't name \(name)")
    }

    /// The integration tests' contract stand-in serves this file as its `appliance_settings`.
    /// `CYCLETRACK_WRITE_FIXTURES=1` writes it from the declaration (docs/DEVELOPMENT.md, "Adding a setting").
    @Test func theContractStandInServesTheDeclarationTheServiceServes() throws {
        let file = Self.root.appendingPathComponent("integration_tests/components/cycletrack/appliance_settings.json")
        guard case .array(let rows) = SettingsJSON.declarations else { Issue.record("not a list"); return }
        let expected = "[\n" + rows.map { "  " + $0.compactJSON() }.joined(separator: ",\n") + "\n]\n"
        if ProcessInfo.processInfo.environment["CYCLETRACK_WRITE_FIXTURES"] == "1" {
            try expected.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == expected,
                "integration_tests/components/cycletrack/appliance_settings.json: run CYCLETRACK_WRITE_FIXTURES=1 swift test --filter DeclaredSettingsFilesTests")
    }

    @Test(arguments: ApplianceSetting.tunables.map(\.key))
    func theIntegrationNamesTheEntityAndGivesItAnIcon(key: String) throws {
        let setting = try #require(ApplianceSetting.named(key))
        guard let platform = Self.platform(setting) else { return }
        for file in ["strings.json", "translations/en.json"] {
            let entities = try Self.json(file)["entity"] as? [String: [String: [String: Any]]]
            let name = entities?[platform]?[setting.entityKey]?["name"] as? String
            #expect(name?.isEmpty == false, "\(file): entity.\(platform).\(setting.entityKey).name")
        }
        let icons = try Self.json("icons.json")["entity"] as? [String: [String: [String: Any]]]
        let icon = icons?[platform]?[setting.entityKey]?["default"] as? String
        #expect(icon?.hasPrefix("mdi:") == true, "icons.json: entity.\(platform).\(setting.entityKey).default")
    }

    /// A setting with no entity is a field of the options flow's `appliance` step, named in both files.
    @Test(arguments: optionsSettings)
    func theIntegrationsOptionsNameTheSetting(key: String) throws {
        for file in ["strings.json", "translations/en.json"] {
            let steps = (try Self.json(file)["options"] as? [String: Any])?["step"] as? [String: [String: Any]]
            let fields = steps?["appliance"]?["data"] as? [String: String]
            #expect(fields?[key]?.isEmpty == false, "\(file): options.step.appliance.data.\(key)")
        }
    }
}
