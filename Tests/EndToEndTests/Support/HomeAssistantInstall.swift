import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a Home Assistant release is installed for the end-to-end tests, and how its
/// Python is started: a virtual environment on this machine (2024.3.3, Python 3.11), or
/// the Debian forky root of `scripts/ha/forky-root.sh` (2026.11.0, Python 3.14), entered
/// with `forky-root.sh run --` (the repository and /tmp are at the same paths inside;
/// every step execs, so the started process keeps the pid `Process` sees).
enum HomeAssistantInstall {
    case venv(URL)
    case forkyRoot(URL)

    /// The `hass` executable, as the started Python sees it.
    var hass: String {
        switch self {
        case .venv(let directory): directory.appendingPathComponent("bin/hass").path
        case .forkyRoot: "/opt/homeassistant/bin/hass"
        }
    }

    /// A process (not started) running `script` with this install's Python.
    func process(_ script: String, _ arguments: [String]) -> Process {
        let process = Process()
        switch self {
        case .venv(let directory):
            process.executableURL = directory.appendingPathComponent("bin/python")
            process.arguments = [script] + arguments
        case .forkyRoot(let tool):
            process.executableURL = tool
            process.arguments = ["run", "--", "python", script] + arguments
        }
        return process
    }

    /// Why the 2024.3.3 venv can't be used, or nil.
    static func venvAvailability(_ venv: URL) -> String? {
        let files = FileManager.default
        guard files.fileExists(atPath: venv.appendingPathComponent(".cycletrack-ha-ready").path) else {
            return "no Home Assistant \(HomeAssistantProcess.oldestVersion) venv at \(venv.path) (no setup marker): run scripts/ha/setup.sh"
        }
        for tool in ["bin/hass", "bin/python"] where !files.isExecutableFile(atPath: venv.appendingPathComponent(tool).path) {
            return "\(venv.path)/\(tool) is missing: run scripts/ha/setup.sh --force"
        }
        return nil
    }

    /// Why the forky root can't be used, or nil; asked once per test process
    /// (`forky-root.sh status` compares the root's marker with its inputs).
    static let forkyRootAvailability: String? = {
        let version = HomeAssistantProcess.currentVersion
        guard getuid() == 0 else {
            return "Home Assistant \(version) runs in a chroot (scripts/ha/forky-root.sh), which needs root; this is uid \(getuid())"
        }
        let status = Process()
        status.executableURL = HomeAssistantProcess.scriptsDirectory.appendingPathComponent("forky-root.sh")
        status.arguments = ["status"]
        let output = Pipe()
        status.standardOutput = output
        status.standardError = output
        do {
            try status.run()
        } catch {
            return "could not run scripts/ha/forky-root.sh status: \(error)"
        }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        status.waitUntilExit()
        guard status.terminationStatus == 0 else {
            return "\(said.trimmingCharacters(in: .whitespacesAndNewlines)): run scripts/ha/forky-root.sh ensure"
        }
        return nil
    }()

    /// Compares dotted release numbers ("2024.3.3" < "2026.11.0") number by number.
    static func compare(_ left: String, _ right: String) -> ComparisonResult {
        let a = left.split(separator: ".").map { Int($0) ?? 0 }
        let b = right.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }
}
