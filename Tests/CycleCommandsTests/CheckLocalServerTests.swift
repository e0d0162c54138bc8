import CycleService
import HistoryWeb
import ServiceAPI
import Testing
@testable import CycleCommands

/// `check`'s `http` row (issue 31, item 7): whether `run` can serve the history page and
/// the local API where the configuration says, found out before `run` tries.
@Suite struct CheckLocalServerTests {
    static func row(port: Int) async throws -> CheckCommand.Row {
        var config = Configuration(source: "test")
        config.httpListen = "127.0.0.1"
        config.httpPort = port
        return await (try CheckCommand(arguments: [], environment: [:])).localServerRow(config)
    }

    static func holder(answering body: String, status: Int) throws -> HistoryServer {
        try HistoryServer(.init(listen: "127.0.0.1", port: 0), respond: { _ in HistoryResponse(status: status, body: body) })
    }

    @Test func aFreePortIsWhereRunWillServe() async throws {
        // A port the kernel just handed out and took back: free.
        let taken = try Self.holder(answering: "", status: 200)
        let port = Int(taken.port)
        taken.stop()
        let row = try await Self.row(port: port)
        #expect(row.ok == true && row.detail.contains("is free"), "\(row.detail)")
    }

    @Test func anotherProgramOnThePortFailsTheRowSayingTheIntegrationCantConnect() async throws {
        let other = try Self.holder(answering: "<p>someone else</p>", status: 200)
        defer { other.stop() }
        let row = try await Self.row(port: Int(other.port))
        #expect(row.ok == false)
        #expect(row.detail.contains("cannot listen on 127.0.0.1:\(other.port)") && row.detail.contains("integration couldn't connect"),
                "\(row.detail)")
    }

    @Test func aRunningCycletrackOnThePortIsFine() async throws {
        let running = try Self.holder(answering: #"{"error":"unauthorized","message":"\#(ServiceAPI.unauthorizedMessage)"}"#, status: 401)
        defer { running.stop() }
        let row = try await Self.row(port: Int(running.port))
        #expect(row.ok == true && row.detail.contains("a running cycletrack"), "\(row.detail)")
    }

    @Test func portZeroIsNotCheckedButSaysWhatItMeans() async throws {
        let row = try await Self.row(port: 0)
        #expect(row.ok == nil && row.detail.contains("integration can't connect"))
    }
}
