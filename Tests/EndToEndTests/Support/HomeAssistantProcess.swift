import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// A real Home Assistant for end-to-end tests: 2026.11.0 (the default) from the Debian
/// forky root that `scripts/ha/forky-root.sh` builds, or 2024.3.3 from the virtual
/// environment that `scripts/ha/setup.sh` builds. `CYCLETRACK_HA_VERSION` chooses for
/// the whole test run; `HomeAssistantProcess(version:)` for one instance.
///
///     let ha = try HomeAssistantProcess()      // fresh config dir, free port; not started
///     try await ha.start()                     // hass runs, answers, is onboarded
///     try await ha.setState("sensor.x", "run", attributes: ["device_class": "enum"])
///     try await ha.setAppliance(["operation_state": "run", "progress": 42])
///     let calls = try ha.supernotifyCalls()     // what reached supernotify.notify
///     await ha.stop()                           // and start() again: same config, same token
///
/// cycletrack reaches it at `url` with `home_assistant.token_file` = `tokenFile`.
/// The token is read from that file only to build Authorization headers: it never
/// appears on a command line, in a log or in an error. `deinit` stops hass if a test
/// did not; hass runs under `scripts/ha/run_hass.py`, which also stops it if the
/// test process dies. Every start prints which Home Assistant the test runs on.
final class HomeAssistantProcess: @unchecked Sendable {
    /// The release the tests run on unless told otherwise: the one with Live Activities.
    static let currentVersion = "2026.11.0"
    /// The oldest release the README claims cycletrack's core works with (REST and WebSocket).
    static let oldestVersion = "2024.3.3"
    static let knownVersions = [currentVersion, oldestVersion]

    /// `$CYCLETRACK_HA_VERSION`, else `currentVersion`: what `HomeAssistantProcess()` starts.
    static var version: String {
        let chosen = ProcessInfo.processInfo.environment["CYCLETRACK_HA_VERSION"] ?? ""
        return chosen.isEmpty ? currentVersion : chosen
    }

    // MARK: Where things are

    /// The repository root, found from this file's place in it.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // EndToEndTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static var fixtureDirectory: URL {
        repositoryRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures/ha-config")
    }

    static var scriptsDirectory: URL { repositoryRoot.appendingPathComponent("scripts/ha") }

    /// For 2024.3.3: `$CYCLETRACK_HA_VENV`, else `$CYCLETRACK_CACHE_DIR/ha-2024.3.3`
    /// (`CYCLETRACK_CACHE_DIR` defaults to `${XDG_CACHE_HOME:-$HOME/.cache}/cycletrack`),
    /// exactly as `scripts/ha/setup.sh` computes it.
    static var venvDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["CYCLETRACK_HA_VENV"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        return cacheDirectory.appendingPathComponent("ha-\(oldestVersion)")
    }

    /// `$CYCLETRACK_CACHE_DIR`, else `${XDG_CACHE_HOME:-$HOME/.cache}/cycletrack`: where the
    /// scripts keep every cache (the Home Assistant root and venv, pip's downloads, the
    /// deployment tests' Podman store).
    static var cacheDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["CYCLETRACK_CACHE_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        let cache: String
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            cache = xdg
        } else {
            cache = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        }
        return URL(fileURLWithPath: cache).appendingPathComponent("cycletrack")
    }

    /// Why a real HA of `version` can't be started here, or nil when it can.
    static func availability(version: String = HomeAssistantProcess.version) -> String? {
        guard FileManager.default.fileExists(atPath: fixtureDirectory.appendingPathComponent("configuration.yaml").path) else {
            return "the fixture config is missing at \(fixtureDirectory.path)"
        }
        switch version {
        case currentVersion: return HomeAssistantInstall.forkyRootAvailability
        case oldestVersion: return HomeAssistantInstall.venvAvailability(venvDirectory)
        default: return "no Home Assistant \(version) here: CYCLETRACK_HA_VERSION is one of \(knownVersions.joined(separator: ", "))"
        }
    }

    /// `CYCLETRACK_REQUIRE_HA=1` (CI) makes a missing HA a failure instead of a skip.
    static var isRequired: Bool { ProcessInfo.processInfo.environment["CYCLETRACK_REQUIRE_HA"] == "1" }

    /// Whether suites that need HA should run: when it's there, or when it's required
    /// (then `init()` fails with the reason).
    static var shouldRun: Bool { availability() == nil || isRequired }

    /// Whether the HA these tests run on (`version`) is at least `minimum`: for suites of
    /// features that need a newer HA than the oldest supported one.
    static func isAtLeast(_ minimum: String) -> Bool {
        HomeAssistantInstall.compare(version, minimum) != .orderedAscending
    }

    // MARK: This instance

    /// The temporary directory holding everything: `config/`, `hass.log`, `token`.
    let directory: URL
    /// HA's config directory (a copy of the fixture, port filled in).
    let configDirectory: URL
    /// Where hass's stdout and stderr go.
    let logFile: URL
    /// The long-lived access token, mode 0600. Point cycletrack's `token_file` here.
    let tokenFile: URL
    /// HA's port, claimed for as long as this instance lives (see `PortClaim`).
    var port: Int { portClaim.port }
    private let portClaim: PortClaim
    /// `http://127.0.0.1:<port>`
    let url: URL
    /// The Home Assistant release this instance runs (checked against `/api/config` at start).
    let version: String
    private let install: HomeAssistantInstall

    private let lock = NSLock()
    private var process: Process?
    private var logHandle: FileHandle?

    /// Copies the fixture config into a fresh temporary directory and claims a free
    /// 127.0.0.1 port. Does not start HA. Throws the availability reason when that
    /// release isn't there.
    init(version: String = HomeAssistantProcess.version) throws {
        if let reason = Self.availability(version: version) {
            throw HomeAssistantTestError("Home Assistant \(version) is not available: \(reason)")
        }
        self.version = version
        install = version == Self.oldestVersion
            ? .venv(Self.venvDirectory) : .forkyRoot(Self.scriptsDirectory.appendingPathComponent("forky-root.sh"))
        let files = FileManager.default
        directory = files.temporaryDirectory.appendingPathComponent("cycletrack-ha-\(UUID().uuidString)")
        configDirectory = directory.appendingPathComponent("config")
        logFile = directory.appendingPathComponent("hass.log")
        tokenFile = directory.appendingPathComponent("token")
        try files.createDirectory(at: directory, withIntermediateDirectories: true,
                                  attributes: [.posixPermissions: 0o700])
        try files.copyItem(at: Self.fixtureDirectory, to: configDirectory)
        portClaim = try PortClaim()
        url = URL(string: "http://127.0.0.1:\(portClaim.port)")!
        let configuration = configDirectory.appendingPathComponent("configuration.yaml")
        let template = try String(contentsOf: configuration, encoding: .utf8)
        try template.replacingOccurrences(of: "__PORT__", with: String(portClaim.port))
            .write(to: configuration, atomically: true, encoding: .utf8)
    }

    deinit {
        terminate(graceSeconds: 15)
        if ProcessInfo.processInfo.environment["CYCLETRACK_KEEP_HA"] == "1" {
            FileHandle.standardError.write(Data("HomeAssistantProcess: kept \(directory.path)\n".utf8))
        } else {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    var isRunning: Bool {
        lock.withLock { process?.isRunning ?? false }
    }

    // MARK: Start and stop

    /// Starts `hass -c <configDirectory> --skip-pip` and waits (bounded by `timeout`: the whole
    /// suite boots several at once on two cores, beside the deployment tests' build)
    /// until it answers, a token works (onboarding the first time, checking the kept
    /// token on a restart), `/api/config` says RUNNING with the expected version, hass
    /// listens on 127.0.0.1 only, and its `home_connect` stand-in entry is loaded.
    /// Prints the version and the test. Fails with the end of HA's log.
    func start(timeout: Duration = .seconds(420)) async throws {
        guard !isRunning else { throw HomeAssistantTestError("Home Assistant is already running at \(url)") }
        let deadline = ContinuousClock.now + timeout
        let log = try openLog()
        let child = install.process(Self.scriptsDirectory.appendingPathComponent("run_hass.py").path,
                                    [install.hass, "-c", configDirectory.path, "--skip-pip"])
        child.standardOutput = log
        child.standardError = log
        child.standardInput = FileHandle.nullDevice
        child.currentDirectoryURL = directory
        do {
            try child.run()
        } catch {
            throw HomeAssistantTestError("could not start hass: \(error)")
        }
        lock.withLock {
            process = child
            logHandle = log
        }

        do {
            try await waitUntil(deadline, "GET /api/onboarding to answer 200") {
                try await self.request("GET", "/api/onboarding", authorized: false).status == 200
            }
            // The answer must be this hass's, not another's on the same port, before
            // anything is onboarded.
            try checkListening(child.processIdentifier)
            if FileManager.default.fileExists(atPath: tokenFile.path) {
                let status = try await request("GET", "/api/").status
                guard status == 200 else {
                    throw HomeAssistantTestError("the kept token is refused after a restart (HTTP \(status))")
                }
            } else {
                try await onboard(deadline: deadline)
            }
            try await waitUntilRunning(deadline)
            try checkListening(child.processIdentifier)
            try await waitUntil(deadline, "the home_connect stand-in's config entry to be loaded") {
                let (status, data) = try await self.request("GET", "/api/config/config_entries/entry?domain=home_connect")
                guard status == 200, let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
                    return false
                }
                return !entries.isEmpty && entries.allSatisfy { $0["state"] as? String == "loaded" }
            }
        } catch {
            terminate(graceSeconds: 10)
            throw HomeAssistantTestError("\(error)\n--- last lines of \(logFile.path) ---\n\(logTail())")
        }
        let test = Test.current.map { "\"\($0.displayName ?? $0.name)\"" } ?? "(no test)"
        print("HomeAssistantProcess: Home Assistant \(version) at \(url) for \(test)")
    }

    /// HA 2026.x answers `/api/` before its integrations are loaded: waits for
    /// `state == RUNNING`, and checks that the version is the one asked for.
    private func waitUntilRunning(_ deadline: ContinuousClock.Instant) async throws {
        var seen: String?
        try await waitUntil(deadline, "GET /api/config to say RUNNING") {
            let (status, data) = try await self.request("GET", "/api/config")
            guard status == 200, let config = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                return false
            }
            seen = config["version"] as? String
            return config["state"] as? String == "RUNNING"
        }
        guard seen == version else {
            throw HomeAssistantTestError("expected Home Assistant \(version), /api/config says \(seen ?? "no version")")
        }
    }

    /// Fails unless hass (the process tree under `pid`) listens on 127.0.0.1:`port` and
    /// nowhere else (`scripts/ha/listening.py` reads /proc; no traffic).
    private func checkListening(_ pid: Int32) throws {
        let checker = Process()
        checker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        checker.arguments = ["python3", Self.scriptsDirectory.appendingPathComponent("listening.py").path,
                             String(pid), "--port", String(port)]
        let output = Pipe()
        checker.standardOutput = output
        checker.standardError = output
        try checker.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        checker.waitUntilExit()
        guard checker.terminationStatus == 0 else {
            throw HomeAssistantTestError("hass must listen on 127.0.0.1:\(port) only: \(said)")
        }
    }

    /// Stops hass: SIGTERM, wait up to `graceSeconds`, then SIGKILL to its whole
    /// process group. The config dir, the token and the stand-ins' files stay, so
    /// `start()` can bring the same HA back.
    func stop(graceSeconds: Double = 30) async {
        let deadline = Date().addingTimeInterval(graceSeconds)
        guard let child = signalStop() else { return }
        while child.isRunning && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        finishStop(child)
    }

    private func signalStop() -> Process? {
        let child = lock.withLock { process }
        guard let child, child.isRunning else {
            closeLog()
            return nil
        }
        kill(child.processIdentifier, SIGTERM)
        return child
    }

    private func finishStop(_ child: Process) {
        if child.isRunning {
            kill(-child.processIdentifier, SIGKILL)
            kill(child.processIdentifier, SIGKILL)
        }
        child.waitUntilExit()
        lock.withLock { process = nil }
        closeLog()
    }

    /// The blocking form of `stop()`, for `deinit` and failed starts.
    private func terminate(graceSeconds: Double) {
        guard let child = signalStop() else { return }
        let deadline = Date().addingTimeInterval(graceSeconds)
        while child.isRunning && Date() < deadline {
            usleep(50_000)
        }
        finishStop(child)
    }

    /// Freezes hass and its wrapper (SIGSTOP to the process group): its sockets stay
    /// open and silent, like a cut cable or a hung HA. `resume()` thaws it.
    func pause() {
        if let child = lock.withLock({ process }), child.isRunning { kill(-child.processIdentifier, SIGSTOP) }
    }

    /// Undoes `pause()` (SIGCONT to the process group).
    func resume() {
        if let child = lock.withLock({ process }), child.isRunning { kill(-child.processIdentifier, SIGCONT) }
    }

    private func openLog() throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: logFile.path),
           !FileManager.default.createFile(atPath: logFile.path, contents: nil) {
            throw HomeAssistantTestError("could not create \(logFile.path)")
        }
        let handle = try FileHandle(forWritingTo: logFile)
        handle.seekToEndOfFile()
        return handle
    }

    private func closeLog() {
        let handle = lock.withLock {
            let handle = logHandle
            logHandle = nil
            return handle
        }
        try? handle?.close()
    }

    private func onboard(deadline: ContinuousClock.Instant) async throws {
        let remaining = max(5, Int((deadline - ContinuousClock.now).components.seconds))
        let helper = install.process(Self.scriptsDirectory.appendingPathComponent("onboard.py").path, [
            "--url", url.absoluteString, "--token-file", tokenFile.path, "--timeout", String(remaining),
        ])
        let output = directory.appendingPathComponent("onboard.log")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw HomeAssistantTestError("could not create \(output.path)")
        }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        helper.standardOutput = handle
        helper.standardError = handle
        helper.standardInput = FileHandle.nullDevice
        try helper.run()
        while helper.isRunning {
            if ContinuousClock.now > deadline + .seconds(10) {
                helper.terminate()
                helper.waitUntilExit()
                throw HomeAssistantTestError("onboard.py did not finish in time")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        guard helper.terminationStatus == 0 else {
            let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw HomeAssistantTestError("onboarding failed (exit \(helper.terminationStatus)): \(said)")
        }
    }

    /// Polls `condition` every 250 ms until it holds or `deadline` passes; fails early
    /// when hass has exited.
    private func waitUntil(_ deadline: ContinuousClock.Instant, _ what: String,
                           _ condition: () async throws -> Bool) async throws {
        var lastError = "no answer yet"
        while ContinuousClock.now < deadline {
            guard isRunning else {
                throw HomeAssistantTestError("hass exited while waiting for \(what)")
            }
            do {
                if try await condition() { return }
                lastError = "not yet"
            } catch {
                lastError = "\(error)"
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        throw HomeAssistantTestError("timed out waiting for \(what) (last: \(lastError))")
    }

    // MARK: REST

    /// One request to HA: `path` like `/api/states/sensor.x`; `json` any
    /// JSONSerialization-able value. Returns the status and body whatever the status.
    func request(_ method: String, _ path: String, json: Any? = nil, authorized: Bool = true) async throws
        -> (status: Int, data: Data)
    {
        guard let target = URL(string: url.absoluteString + path) else {
            throw HomeAssistantTestError("not a path: \(path)")
        }
        var request = URLRequest(url: target, timeoutInterval: 30)
        request.httpMethod = method
        if authorized {
            request.setValue("Bearer \(try readToken())", forHTTPHeaderField: "Authorization")
        }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw HomeAssistantTestError("\(method) \(path): not an HTTP answer")
        }
        return (http.statusCode, data)
    }

    /// GETs `path` and decodes its JSON; fails on a status other than 200.
    func getJSON(_ path: String) async throws -> Any {
        let (status, data) = try await request("GET", path)
        guard status == 200 else { throw Self.httpError("GET", path, status, data) }
        return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// `GET /api/states/<entityID>`: the state object, or nil when HA has none (404).
    func state(_ entityID: String) async throws -> [String: Any]? {
        let (status, data) = try await request("GET", "/api/states/\(entityID)")
        if status == 404 { return nil }
        guard status == 200 else { throw Self.httpError("GET", "/api/states/\(entityID)", status, data) }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// `POST /api/states/<entityID>`: creates (201) or updates (200) a state with no
    /// integration behind it. Returns the status.
    @discardableResult
    func setState(_ entityID: String, _ state: String, attributes: [String: Any] = [:]) async throws -> Int {
        let path = "/api/states/\(entityID)"
        let (status, data) = try await request("POST", path, json: ["state": state, "attributes": attributes])
        guard status == 200 || status == 201 else { throw Self.httpError("POST", path, status, data) }
        return status
    }

    /// `POST /api/services/<domain>/<service>` with `data`. Returns the status and
    /// body without judging them (error tests want the 400s and 500s).
    func callService(_ domain: String, _ service: String, _ data: [String: Any] = [:]) async throws
        -> (status: Int, data: Data)
    {
        try await request("POST", "/api/services/\(domain)/\(service)", json: data)
    }

    /// Drives the `home_connect` stand-in through `home_connect.set_state`: keys are
    /// roles (`operation_state`, `progress`, `finish_time`, `program`, `door`,
    /// `temperature`) or entity ids; `"unavailable"`, `"unknown"` or NSNull() work as
    /// values. `appliance` names the appliance id when the fixture has several.
    func setAppliance(_ values: [String: Any], appliance: String? = nil) async throws {
        var data = values
        if let appliance { data["appliance"] = appliance }
        let (status, body) = try await callService("home_connect", "set_state", data)
        guard status == 200 else { throw Self.httpError("POST", "/api/services/home_connect/set_state", status, body) }
    }

    /// `POST /api/template`: the rendered text.
    func renderTemplate(_ template: String) async throws -> String {
        let (status, data) = try await request("POST", "/api/template", json: ["template": template])
        guard status == 200 else { throw Self.httpError("POST", "/api/template", status, data) }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: The supernotify stand-in

    var supernotifyCallsFile: URL { configDirectory.appendingPathComponent("supernotify_calls.jsonl") }

    /// Every `supernotify.notify` call HA received, oldest first (failed ones too,
    /// with `failure` set).
    func supernotifyCalls() throws -> [RecordedSupernotifyCall] {
        guard FileManager.default.fileExists(atPath: supernotifyCallsFile.path) else { return [] }
        let text = try String(contentsOf: supernotifyCallsFile, encoding: .utf8)
        return try text.split(separator: "\n").enumerated().map { index, line in
            guard let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let data = record["data"] as? [String: Any],
                  let received = record["received_at"] as? String
            else {
                throw HomeAssistantTestError("supernotify_calls.jsonl line \(index + 1) is not a call record")
            }
            return RecordedSupernotifyCall(receivedAt: received, data: data, failure: record["failure"] as? String,
                                           delivered: record["delivered"] as? Bool ?? (record["failure"] is NSNull),
                                           callFiredAt: record["call_fired_at"] as? String)
        }
    }

    /// Waits (bounded) until at least `count` calls were recorded; returns them all.
    func waitForSupernotifyCalls(count: Int, timeout: Duration = .seconds(30)) async throws -> [RecordedSupernotifyCall] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let calls = try supernotifyCalls()
            if calls.count >= count { return calls }
            if ContinuousClock.now >= deadline {
                throw HomeAssistantTestError("expected \(count) supernotify calls within \(timeout), got \(calls.count)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Makes `supernotify.notify` fail: `.invalid` → HA answers 400, `.error` → 500;
    /// nil makes it succeed again. Calls are recorded either way.
    func setSupernotifyFailure(_ failure: SupernotifyFailure?) throws {
        let switchFile = configDirectory.appendingPathComponent("supernotify_fail")
        if let failure {
            try failure.rawValue.write(to: switchFile, atomically: true, encoding: .utf8)
        } else if FileManager.default.fileExists(atPath: switchFile.path) {
            try FileManager.default.removeItem(at: switchFile)
        }
    }

    // MARK: Helpers

    /// The last `lines` lines of hass's log.
    func logTail(lines: Int = 40) -> String {
        guard let text = try? String(contentsOf: logFile, encoding: .utf8) else { return "(no log)" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    private func readToken() throws -> String {
        guard let text = try? String(contentsOf: tokenFile, encoding: .utf8) else {
            throw HomeAssistantTestError("no token file at \(tokenFile.path): not onboarded yet")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func httpError(_ method: String, _ path: String, _ status: Int, _ data: Data) -> HomeAssistantTestError {
        HomeAssistantTestError("\(method) \(path): HTTP \(status): \(String(decoding: data.prefix(500), as: UTF8.self))")
    }
}
