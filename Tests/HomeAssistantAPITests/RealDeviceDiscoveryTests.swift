import CycleCore
import Foundation
import HomeAssistantAPI
import Testing

/// Discovery on the corpus of real devices (Fixtures/RealDevices): every device followed or
/// left out as `expected.json` says, with the entity of each role, whatever the order of
/// its entities: the fixture's, reversed, and three seeded shuffles. The README's
/// benchmark row is the score computed here.
@Suite struct RealDeviceDiscoveryTests {
    typealias Fixture = RealDeviceCorpusTests.Fixture
    typealias Truth = RealDeviceCorpusTests.Truth

    /// The device as discovery sees it after the template and the registry read.
    static func record(_ key: String, _ fixture: Fixture, entities: [Fixture.Entity]) -> DiscoveryRecord {
        DiscoveryRecord(id: key, domain: fixture.integration, name: fixture.device.name,
                        manufacturer: fixture.device.manufacturer, model: fixture.device.model,
                        entities: entities.map { entity in
                            DiscoveryRecord.Entity(
                                id: entity.entity_id, state: entity.state ?? "unknown", options: entity.options,
                                unit: entity.unit, deviceClass: entity.device_class,
                                registry: .init(platform: entity.platform, translationKey: entity.translation_key,
                                                uniqueID: entity.unique_id, originalDeviceClass: entity.original_device_class))
                        })
    }

    /// Nil when discovery's answer for the device is the truth; else what differs.
    static func mismatch(_ key: String, _ fixture: Fixture, _ truth: Truth, entities: [Fixture.Entity]) -> String? {
        let result = ApplianceRoleRecognizer.recognize([record(key, fixture, entities: entities)])
        if let device = result.devices.first {
            let roles = Dictionary(uniqueKeysWithValues: device.entities.map { ($0.key.rawValue, $0.value) })
            guard truth.followed else { return "followed (\(device.rolesSummary)), expected left out: \(truth.reason ?? "")" }
            if device.kind.rawValue != truth.kind { return "kind \(device.kind.rawValue), expected \(truth.kind)" }
            return roles == truth.roles ? nil : "roles \(roles.sorted { $0.key < $1.key }), expected \(truth.roles.sorted { $0.key < $1.key })"
        }
        let reason = result.skipped.first?.reason ?? ""
        if truth.followed { return "left out (\(reason)), expected followed" }
        return reason.isEmpty ? "left out without a reason" : nil
    }

    enum Order: String, CaseIterable {
        case fixture, reversed, shuffled1, shuffled2, shuffled3
    }

    static func entities(_ fixture: Fixture, _ order: Order) -> [Fixture.Entity] {
        var generator = SeededGenerator(seed: 2027 + UInt64(Order.allCases.firstIndex(of: order) ?? 0))
        switch order {
        case .fixture: return fixture.entities
        case .reversed: return fixture.entities.reversed()
        default: return fixture.entities.shuffled(using: &generator)
        }
    }

    /// How many devices are right in `order`, of how many.
    static func score(_ order: Order) throws -> (right: Int, total: Int, wrong: [String]) {
        let fixtures = try RealDeviceCorpusTests.fixtures()
        let truth = try RealDeviceCorpusTests.truth()
        var wrong: [String] = []
        for key in fixtures.keys.sorted() {
            guard let fixture = fixtures[key], let expected = truth[key] else { continue }
            if let problem = mismatch(key, fixture, expected, entities: entities(fixture, order)) {
                wrong.append("\(key): \(problem)")
            }
        }
        return (fixtures.count - wrong.count, fixtures.count, wrong)
    }

    @Test(arguments: Order.allCases)
    func everyDeviceIsRecognisedRightInAnyOrder(order: Order) throws {
        let score = try Self.score(order)
        print("corpus, \(order.rawValue) order: \(score.right) of \(score.total) devices right")
        for problem in score.wrong {
            Issue.record("\(order.rawValue) order: \(problem)")
        }
        #expect(score.total >= 20)
    }

    /// README, "Measured": `| real devices' discovery … | R of N in Home Assistant's order, S of N reversed |`.
    @Test func theReadmesCorpusRowIsTheScore() throws {
        let inOrder = try Self.score(.fixture), reversed = try Self.score(.reversed)
        let readme = try String(contentsOf: RoleTableDocsTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let row = "| real devices from Home Assistant's test data, recognised right by discovery | "
            + "\(inOrder.right) of \(inOrder.total) in Home Assistant's order, \(reversed.right) of \(reversed.total) reversed |"
        #expect(readme.contains(row), "README's row should be: \(row)")
    }
}
