import CycleCore
import FoundationEssentials

/// The `cycletrack run` configuration the benchmark writes: the stand-in's URL, a token
/// file, how updates come (polling by default), no discovery, and the household's
/// appliances with their entities.
struct ServiceConfigFile: Encodable {
    /// How the service hears of changes, and how quickly an appliance may push.
    struct Settings {
        /// `"poll"` or `"events"`, the configuration's `updates`.
        var updates = "poll"
        var activePollSeconds: Double
        var idlePollSeconds: Double
        /// Per appliance; nil keeps the service's default.
        var settleSeconds: Double?
        var minUpdateSeconds: Double?

        /// Polls every `seconds`, active or idle.
        static func polling(every seconds: Double) -> Settings {
            Settings(activePollSeconds: seconds, idlePollSeconds: seconds)
        }
    }

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
        var settleSeconds: Double?
        var minUpdateSeconds: Double?
    }

    var homeAssistant: HomeAssistant
    var updates: String
    var poll: Poll
    var supernotify: Supernotify
    var discover = false
    var appliances: [Appliance]

    /// The daily push limit at its maximum so that a long run keeps pushing instead of
    /// holding calls back.
    init(url: String, tokenFile: String, settings: Settings, appliances: [HouseholdAppliance]) {
        homeAssistant = HomeAssistant(url: url, tokenFile: tokenFile)
        updates = settings.updates
        poll = Poll(activeSeconds: settings.activePollSeconds, idleSeconds: settings.idlePollSeconds)
        supernotify = Supernotify(dailyPushLimit: 100_000)
        self.appliances = appliances.map { appliance in
            Appliance(id: appliance.id, name: appliance.name,
                      entities: Dictionary(uniqueKeysWithValues: appliance.entities.map { ($0.key.rawValue, $0.value) }),
                      settleSeconds: settings.settleSeconds, minUpdateSeconds: settings.minUpdateSeconds)
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
