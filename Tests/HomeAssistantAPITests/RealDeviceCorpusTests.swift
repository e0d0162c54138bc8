import CycleCore
import Foundation
import Testing

/// The corpus of real devices (Fixtures/RealDevices, written by scripts/corpus/convert.py from
/// Home Assistant's own test data) and its truth file hold together: every fixture names its
/// source and has a truth entry, and every role of the truth is a `Role` naming an entity of
/// that device. The tests of discovery on the corpus build on this.
@Suite struct RealDeviceCorpusTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RealDevices")

    struct Fixture: Decodable {
        struct Source: Decodable { let repository: String; let commit: String; let paths: [String] }
        struct Device: Decodable { let name: String; let manufacturer: String?; let model: String? }
        struct Entity: Decodable {
            let entity_id: String
            let platform: String
            let translation_key: String?
            let unique_id: String
            let original_device_class: String?
            let device_class: String?
            let unit: String?
            let options: [String]?
            let state: String?
        }
        let source: Source
        let other_sources: [Source]?
        let integration: String
        let device: Device
        let entities: [Entity]
    }

    struct Truth: Decodable {
        let kind: String
        let followed: Bool
        let reason: String?
        let roles: [String: String]
    }

    static func fixtures() throws -> [String: Fixture] {
        var result: [String: Fixture] = [:]
        let manager = FileManager.default
        for integration in try manager.contentsOfDirectory(atPath: directory.path) where !integration.contains(".") {
            let folder = directory.appendingPathComponent(integration)
            for file in try manager.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
                let data = try Data(contentsOf: folder.appendingPathComponent(file))
                result["\(integration)/\(file.dropLast(5))"] = try JSONDecoder().decode(Fixture.self, from: data)
            }
        }
        return result
    }

    static func truth() throws -> [String: Truth] {
        let data = try Data(contentsOf: directory.appendingPathComponent("expected.json"))
        return try JSONDecoder().decode([String: Truth].self, from: data)
    }

    @Test func everyFixtureHasATruthAndEveryTruthAFixture() throws {
        let fixtures = try Self.fixtures()
        let truth = try Self.truth()
        #expect(fixtures.count >= 20)
        #expect(Set(fixtures.keys) == Set(truth.keys))
    }

    @Test func everyFixtureNamesItsSourceAndItsEntitiesTheirIntegration() throws {
        for (key, fixture) in try Self.fixtures() {
            let sources = [fixture.source] + (fixture.other_sources ?? [])
            for source in sources {
                #expect(source.commit.count == 40 && source.commit.allSatisfy(\.isHexDigit), "\(key): \(source.commit)")
                #expect(!source.paths.isEmpty && source.repository.contains("/"), "\(key)")
            }
            #expect(key.hasPrefix(fixture.integration + "/"))
            #expect(!fixture.entities.isEmpty, "\(key)")
            #expect(Set(fixture.entities.map(\.entity_id)).count == fixture.entities.count, "\(key): an entity twice")
            for entity in fixture.entities {
                #expect(entity.platform == fixture.integration, "\(key): \(entity.entity_id)")
            }
        }
    }

    @Test func everyRoleIsARoleAndNamesAnEntityOfItsDevice() throws {
        let fixtures = try Self.fixtures()
        for (key, truth) in try Self.truth() {
            let ids = Set(fixtures[key]?.entities.map(\.entity_id) ?? [])
            for (role, entity) in truth.roles {
                #expect(Role(rawValue: role) != nil, "\(key): \(role) is not a Role")
                #expect(ids.contains(entity), "\(key): \(role) names \(entity), not an entity of the device")
            }
            if truth.followed {
                #expect(truth.roles["operation_state"] != nil, "\(key): followed without an operation state")
            } else {
                #expect(truth.reason?.isEmpty == false, "\(key): left out without a reason")
            }
        }
    }

    @Test func fridgesFreezersHoodsAndAirConditionersAreLeftOut() throws {
        let leftOut: Set = ["fridge", "freezer", "hood", "air_conditioner"]
        for (key, truth) in try Self.truth() where leftOut.contains(truth.kind) {
            #expect(!truth.followed, "\(key)")
        }
    }
}
