import CycleCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A real Home Assistant 2026.11.0 for the real-HA phase, started as the end-to-end
/// tests start it (docs/TESTING.md) but without them: `hass` of the Debian forky root
/// (`scripts/ha/forky-root.sh run --`) under `scripts/ha/run_hass.py`, on a copy of the
/// tests' fixture config (`Tests/EndToEndTests/Fixtures/ha-config`: the `home_connect`
/// and `supernotify` stand-ins) in the workspace, on a free 127.0.0.1 port, onboarded
/// by `scripts/ha/onboard.py`, whose long-lived token goes to a 0600 file only.
final class RealHomeAssistant {
    static let version = "2026.11.0"
    let directory: String
    let configDirectory: String
    let tokenFile: String
    let port: Int
    let url: String
    let rest: BlockingREST
    private let scripts: String
    private var process: ChildProcess?
    private var starts = 0

    /// Why HA 2026.11.0 can't be started here, or nil (`forky-root.sh status`).
    static func availability(packageRoot: String) -> String? {
        guard getuid() == 0 else { return "the forky root needs root (unshare, chroot); this is uid \(getuid())" }
        guard let status = try? ChildProcess(executable: packageRoot + "/scripts/ha/forky-root.sh", arguments: ["status"],
                                             environment: ProcessInfo.processInfo.environment,
                                             stdoutPath: "/dev/null", stderrPath: "/dev/null"),
              status.wait(timeout: 60) == .exited(0)
        else { return "scripts/ha/forky-root.sh status says the root is not ready: run scripts/ha/forky-root.sh ensure" }
        return nil
    }

    init(packageRoot: String, workspace: BenchWorkspace) throws(BenchError) {
        scripts = packageRoot + "/scripts/ha"
        directory = workspace.path("ha")
        configDirectory = directory + "/config"
        tokenFile = directory + "/token"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: packageRoot + "/Tests/EndToEndTests/Fixtures/ha-config", toPath: configDirectory)
            port = try Self.freePort()
            let configuration = configDirectory + "/configuration.yaml"
            let text = try String(contentsOfFile: configuration, encoding: .utf8)
            try text.replacing("__PORT__", with: String(port)).write(toFile: configuration, atomically: true, encoding: .utf8)
        } catch {
            throw BenchError("cannot prepare Home Assistant's config in \(directory): \(error)")
        }
        url = "http://127.0.0.1:\(port)"
        rest = BlockingREST(baseURL: url, tokenFile: tokenFile, timeoutSeconds: 5)
    }

    deinit { stop() }

    /// Starts hass; returns once it answers (onboarding it the first time), says
    /// RUNNING, and has loaded the `home_connect` stand-in's entry.
    func start(timeout: Double = 240) throws(BenchError) {
        try launch()
        try waitReady(timeout: timeout)
    }

    /// Spawns hass and returns at once.
    func launch() throws(BenchError) {
        starts += 1
        let log = directory + "/hass-\(starts).log"
        process = try ChildProcess(
            executable: scripts + "/forky-root.sh",
            arguments: ["run", "--", "python", scripts + "/run_hass.py", "/opt/homeassistant/bin/hass", "-c", configDirectory, "--skip-pip"],
            environment: ProcessInfo.processInfo.environment, stdoutPath: log, stderrPath: log + ".err")
    }

    /// Waits until hass answers (onboarding it the first time), says RUNNING, and has
    /// loaded the `home_connect` stand-in's entry.
    func waitReady(timeout: Double = 240) throws(BenchError) {
        let timer = Stopwatch()
        try waitUntil("GET /api/onboarding to answer", timer, timeout) { rest.send(.get, "/api/onboarding", authorized: false) != nil }
        if !FileManager.default.fileExists(atPath: tokenFile) { try onboard() }
        try waitUntil("/api/config to say RUNNING", timer, timeout) {
            rest.send(.get, "/api/config").map { $0.status == 200 && $0.body.contains("\"state\":\"RUNNING\"") } ?? false
        }
        try waitUntil("the home_connect stand-in's entry to be loaded", timer, timeout) {
            guard let answer = rest.send(.get, "/api/config/config_entries/entry?domain=home_connect"), answer.status == 200 else { return false }
            return answer.body.contains("\"state\":\"loaded\"")
        }
    }

    /// An authorized `GET /api/` is answered 200.
    func answering() -> Bool { rest.send(.get, "/api/")?.status == 200 }

    /// SIGTERM to hass (run_hass.py passes it on), then up to 30 s, then SIGKILL to its group.
    func stop() {
        guard let process else { return }
        process.send(SIGTERM)
        if process.wait(timeout: 30) == nil {
            kill(-process.pid, SIGKILL)
            _ = process.wait(timeout: 10)
        }
        self.process = nil
    }

    var isRunning: Bool { process.map { $0.poll() == nil } ?? false }

    /// The calls the Supernotify stand-in records, read as they are appended.
    func callLog() -> SupernotifyCallLog {
        SupernotifyCallLog(path: configDirectory + "/supernotify_calls.jsonl")
    }

    /// `last_updated` of an entity's state (HA's clock): when HA set it, which is also the
    /// `time_fired` of the `state_changed` event (HA takes both from one timestamp).
    func lastUpdated(_ entity: String) -> Date? {
        struct State: Decodable { var last_updated: String }
        guard let answer = rest.send(.get, "/api/states/" + entity), answer.status == 200,
              let state = try? JSONDecoder().decode(State.self, from: Data(answer.body.utf8)) else { return nil }
        return ISOTime.parse(state.last_updated)
    }

    private func onboard() throws(BenchError) {
        let log = directory + "/onboard.log"
        let helper = try ChildProcess(
            executable: scripts + "/forky-root.sh",
            arguments: ["run", "--", "python", scripts + "/onboard.py", "--url", url, "--token-file", tokenFile, "--timeout", "120"],
            environment: ProcessInfo.processInfo.environment, stdoutPath: log, stderrPath: log + ".err")
        guard helper.wait(timeout: 150) == .exited(0) else {
            throw BenchError("onboarding Home Assistant failed; see \(log)")
        }
    }

    private func waitUntil(_ what: String, _ timer: Stopwatch, _ timeout: Double, _ condition: () -> Bool) throws(BenchError) {
        while !condition() {
            guard isRunning else { throw BenchError("hass exited while waiting for \(what); see \(directory)/hass-\(starts).log") }
            guard timer.seconds < timeout else { throw BenchError("timed out after \(Int(timeout)) s waiting for \(what)") }
            usleep(100_000)
        }
    }

    private static func freePort() throws(BenchError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("cannot bind a free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
