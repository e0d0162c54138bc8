import CycleCore
import FoundationEssentials

/// The `cycletrack run` configuration the benchmark writes: the stand-in's URL, a token
/// file, fast polling, no discovery, and the household's appliances with their entities.
struct ServiceConfigFile: Encodable {
    struct HomeAssistant: Encodable {
        var url: String
        var tokenFile: String
    }

    struct Poll: Encodable {
        var activeSeconds: Double
        var idleSeconds: Double
    }

    struct Supernotify: Encodable {
        var dailyPushLimit: Int
    }

    struct Appliance: Encodable {
        var id: String
        var name: String
        var entities: [String: String]
    }

    var homeAssistant: HomeAssistant
    var poll: Poll
    var supernotify: Supernotify
    var discover = false
    var appliances: [Appliance]

    /// Polls every `pollSeconds`, active or idle; the daily push limit at its maximum
    /// so that a long footprint run keeps pushing instead of holding calls back.
    init(url: String, tokenFile: String, pollSeconds: Double, appliances: [HouseholdAppliance]) {
        homeAssistant = HomeAssistant(url: url, tokenFile: tokenFile)
        poll = Poll(activeSeconds: pollSeconds, idleSeconds: pollSeconds)
        supernotify = Supernotify(dailyPushLimit: 100_000)
        self.appliances = appliances.map { appliance in
            Appliance(id: appliance.id, name: appliance.name,
                      entities: Dictionary(uniqueKeysWithValues: appliance.entities.map { ($0.key.rawValue, $0.value) }))
        }
    }

    func write(to path: String) throws(BenchError) {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(self).write(to: URL(filePath: path))
        } catch {
            throw BenchError("cannot write the service configuration \(path): \(error)")
        }
    }
}
