import CycleCore
import FoundationEssentials
import HomeAssistantAPI
import HTTPStandIn
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in Home Assistant on 127.0.0.1 with the household's entities, and the
/// configuration that points `cycletrack run` at it.
final class ServiceHarness {
    let standIn: HomeAssistantStandIn
    let configPath: String
    let appliances: [HouseholdAppliance]
    private let workspace: BenchWorkspace
    private let binary: String

    /// Starts the stand-in with every appliance idle and writes `<name>.json` for
    /// `settings` (by default polling every `pollSeconds`, no WebSocket). With
    /// `webSocket`, the stand-in also serves HA's WebSocket API on its port.
    init(workspace: BenchWorkspace, binary: String, appliances: [HouseholdAppliance], pollSeconds: Double = 1,
         name: String, settings: ServiceConfigFile.Settings? = nil, webSocket: Bool = false) throws(BenchError) {
        do {
            standIn = try HomeAssistantStandIn(token: workspace.token,
                                               webSocketAccept: webSocket ? WebSocketHandshake.acceptValue(for:) : nil)
        } catch {
            throw BenchError("cannot start the stand-in Home Assistant on 127.0.0.1: \(error)")
        }
        self.workspace = workspace
        self.binary = binary
        self.appliances = appliances
        for appliance in appliances {
            for (role, entity) in appliance.entities {
                switch role {
                case .operationState:
                    standIn.set(entity: entity, state: "ready", deviceClass: "enum",
                                options: OperationState.allCases.map(\.rawValue))
                case .progress: standIn.set(entity: entity, state: "unavailable", unit: "%")
                case .finishTime: standIn.set(entity: entity, state: "unavailable", deviceClass: "timestamp")
                case .temperature: standIn.set(entity: entity, state: "21", unit: "°C", deviceClass: "temperature")
                case .program: standIn.set(entity: entity, state: "unknown")
                default: standIn.set(entity: entity, state: "closed")
                }
            }
        }
        configPath = workspace.path(name + ".json")
        try ServiceConfigFile(url: standIn.baseURL, tokenFile: workspace.tokenFile,
                              settings: settings ?? .polling(every: pollSeconds), appliances: appliances).write(to: configPath)
    }

    deinit {
        standIn.stop()
    }

    /// Spawns `cycletrack run` on `database`; its log goes to `<logName>.log`.
    func startService(database: String, logName: String) throws(BenchError) -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        for key in ["HA_TOKEN", "SUPERVISOR_TOKEN", "CYCLETRACK_CONFIG", "CYCLETRACK_DB"] { environment[key] = nil }
        environment["CYCLETRACK_LOG"] = "info"
        return try ChildProcess(
            executable: binary, arguments: ["run", "--config", configPath, "--db", database],
            environment: environment, stdoutPath: workspace.path(logName + ".out"),
            stderrPath: workspace.path(logName + ".log"))
    }

    /// States polls answered so far: discovery is off, so every template request is one.
    func pollsAnswered() -> Int {
        standIn.requests.reduce(0) { $0 + ($1 == "POST /api/template" ? 1 : 0) }
    }

    /// Sends SIGTERM and waits up to `timeout` seconds: the exit status (nil if it
    /// didn't end, in which case it is killed) and how long it took.
    func stop(_ process: ChildProcess, timeout: Double = 15) -> (status: ChildProcess.Status?, seconds: Double) {
        let timer = Stopwatch()
        process.send(SIGTERM)
        let status = process.wait(timeout: timeout)
        let seconds = timer.seconds
        if status == nil {
            process.send(SIGKILL)
            _ = process.wait(timeout: 5)
        }
        return (status, seconds)
    }
}
