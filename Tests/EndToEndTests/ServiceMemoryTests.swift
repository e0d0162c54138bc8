import Foundation
import HTTPStandIn
import HomeAssistantAPI
import Testing

/// Resident memory after large WebSocket messages (issue 31, item 17): glibc kept what a
/// few 16 MiB messages had used (28 MiB resident became 76 MiB); `MemoryPolicy` gives it
/// back. Measured on the real service process, as /proc says.
@Suite struct ServiceMemoryTests {
    let token = "test-token-\(UUID().uuidString)"

    /// VmRSS of a process, in bytes.
    static func resident(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return kilobytes * 1024
    }

    /// Without the policy: 32.5 MB resident before, 80.3 MB after; with it, 32.6 and 33.0.
    @Test func fiveLargeMessagesLeaveTheServiceAsLargeAsBefore() throws {
        let scratch = try Scratch()
        let standIn = try HomeAssistantStandIn(token: token, webSocketAccept: WebSocketHandshake.acceptValue(for:))
        defer { standIn.stop() }
        standIn.set(entity: "sensor.dw_operation_state", state: "run", deviceClass: "enum")
        standIn.set(entity: "sensor.dw_progress", state: "40", unit: "%")
        scratch.write("token", token, mode: 0o600)
        let config = scratch.write("cycletrack.json", """
            {"home_assistant": {"url": "\(standIn.baseURL)", "token_file": "\(scratch.path)/token"},
             "discover": false, "updates": "events", "http": {"port": 0},
             "appliances": [{"id": "dw", "name": "Dishwasher", "settle_seconds": 0, "min_update_seconds": 0,
                             "entities": {"operation_state": "sensor.dw_operation_state", "progress": "sensor.dw_progress"}}]}
            """)
        let service = try CycletrackProcess(["run", "--config", config, "--db", scratch.path + "/history.sqlite"])
        defer { service.signal(SIGTERM); _ = service.wait(timeout: 15) }
        #expect(service.waitForLog("event=call ", count: 1, timeout: 60), "the start: \(service.stderrSoFar)")
        let before = try Self.resident(service.process.processIdentifier)
        // Each change carries 15 MiB of attributes (under the client's 16 MiB cap) and
        // crosses a progress step, so each is read whole and makes a call.
        for (index, progress) in [50, 60, 70, 80, 90].enumerated() {
            let large = [String(repeating: Character(UnicodeScalar(UInt8(97 + index))), count: 15 * 1_048_576 - index)]
            standIn.set(entity: "sensor.dw_progress", state: String(progress), unit: "%", options: large)
            #expect(service.waitForLog("event=call ", count: 2 + index, timeout: 60), "the update at \(progress) %")
        }
        let after = try Self.resident(service.process.processIdentifier)
        let grown = after - before
        #expect(grown < 8 * 1024 * 1024, "resident \(before / 1_048_576) MiB before, \(after / 1_048_576) MiB after five 15 MiB messages")
    }
}
