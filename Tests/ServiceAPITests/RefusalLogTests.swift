import Testing
@testable import ServiceAPI

/// What a client refused by the API makes the service write (issue 31, item 13): its
/// first refusal, then a line a minute with the count in between, for a bounded number
/// of addresses.
@Suite struct RefusalLogTests {
    static let start = ContinuousClock.now

    /// (client, seconds after the start) → the line logged, nil for none.
    @Test func aClientIsLoggedOnceAMinuteWithWhatWentUnlogged() {
        var log = RefusalLog()
        let table: [(String, Int, RefusalLog.Line?)] = [
            ("10.0.0.9", 0, .init(client: "10.0.0.9", unlogged: 0)),
            ("10.0.0.9", 0, nil),
            ("10.0.0.9", 30, nil),
            ("10.0.0.7", 31, .init(client: "10.0.0.7", unlogged: 0)),
            ("10.0.0.9", 59, nil),
            ("10.0.0.9", 60, .init(client: "10.0.0.9", unlogged: 3)),
            ("10.0.0.9", 61, nil),
            ("10.0.0.9", 200, .init(client: "10.0.0.9", unlogged: 1)),
            ("10.0.0.7", 200, .init(client: "10.0.0.7", unlogged: 0)),
        ]
        for (index, (client, seconds, expected)) in table.enumerated() {
            #expect(log.refused(client, at: Self.start + .seconds(seconds)) == expected, "row \(index)")
        }
    }

    @Test func aThousandRefusalsInASecondWriteOneLine() {
        var log = RefusalLog()
        let lines = (0..<1_000).compactMap { log.refused("127.0.0.1", at: Self.start + .milliseconds($0)) }
        #expect(lines == [.init(client: "127.0.0.1", unlogged: 0)])
    }

    @Test func addressesPastTheLimitShareOneLineAMinute() {
        var log = RefusalLog(interval: .seconds(60), clientLimit: 3)
        let first = (0..<10).compactMap { log.refused("10.0.0.\($0)", at: Self.start) }
        #expect(first.map(\.client) == ["10.0.0.0", "10.0.0.1", "10.0.0.2", RefusalLog.others])
        #expect(log.remembered == 4, "the limit and the shared line")
        // A minute on, the stale addresses make room again.
        let later = log.refused("10.0.0.8", at: Self.start + .seconds(61))
        #expect(later == .init(client: "10.0.0.8", unlogged: 0))
        #expect(log.remembered <= 4)
    }
}
