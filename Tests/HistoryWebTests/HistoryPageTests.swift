@testable import CycleHistory
@testable import CycleService
import Foundation
@testable import HistoryWeb
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The history page rendered from the small known history (`HistoryFixture`), then
/// served by libmicrohttpd over loopback: every page answers, every link resolves
/// under an ingress prefix, and bad input gets a 4xx and nothing else.
@Suite("History page")
struct HistoryPageTests {
    let fixture: HistoryFixture
    let site: HistorySite

    init() throws {
        fixture = try HistoryFixture()
        site = HistorySite(databasePath: fixture.path, timeZone: HistoryFixture.timeZone)
    }

    func page(_ path: String, _ query: [String: String] = [:], ingress: String? = nil) -> HistoryResponse {
        site.respond(to: HistoryRequest(path: path, query: query, ingressPath: ingress), now: HistoryFixture.now)
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("The cycle list has a row per stored cycle, and its form's filters narrow it")
    func cycleList() throws {
        let all = page("/cycles")
        #expect(all.status == 200)
        #expect(Self.count("class=\"cycle-row\"", in: all.body) == 4)
        #expect(all.body.contains("Cotton, &quot;Eco&quot; 40"), "escaped, not raw markup")
        #expect(all.body.contains("2026-11-02 09:00"), "local start times")
        for field in ["appliance", "since", "until", "program", "outcome"] {
            #expect(all.body.contains("name=\"\(field)\""), "a form field for \(field)")
        }
        #expect(Self.count("class=\"cycle-row\"", in: page("/cycles", ["appliance": "washer"]).body) == 1)
        #expect(Self.count("class=\"cycle-row\"", in: page("/cycles", ["outcome": "open"]).body) == 1)
        #expect(Self.count("class=\"cycle-row\"", in: page("/cycles", ["program": "ECO_50"]).body) == 2)
        #expect(Self.count("class=\"cycle-row\"", in: page("/cycles", ["since": "2026-11-02", "until": "2026-11-03"]).body) == 2)
        #expect(Self.count("class=\"cycle-row\"", in: page("/cycles", ["appliance": "", "outcome": ""]).body) == 4,
                "empty fields are no filter")
    }

    @Test("A cycle's timeline marks every stored push on its chart", arguments: [1, 2, 3, 4] as [Int64])
    func timelineMarkers(id: Int64) throws {
        let response = page("/cycle", ["id": String(id)])
        #expect(response.status == 200)
        let store = try HistoryStore(path: fixture.path, mode: .readOnly)
        let pushes = try store.pushes(cycleID: id)
        #expect(!pushes.isEmpty)
        #expect(Self.count("class=\"push-marker", in: response.body) == pushes.count)
        #expect(Self.count("class=\"push-row", in: response.body) == pushes.count)
        #expect(response.body.contains("id=\"progress-chart\""))
    }

    @Test("A held-back call shows on the timeline, hollow, and in the table")
    func heldBackCall() throws {
        let store = try HistoryStore(path: fixture.path)
        _ = try store.recordPush(cycleID: 3, applianceID: "dishwasher", at: HistoryFixture.now, kind: .progress,
                                 reason: "budget: daily limit reached", body: "{}", status: .notSent)
        let response = page("/cycle", ["id": "3"])
        #expect(Self.count("class=\"push-marker", in: response.body) == 2)
        #expect(Self.count("push-marker kind-progress held", in: response.body) == 1)
        #expect(response.body.contains("budget: daily limit reached"))
        #expect(response.body.contains("1 + 1 held back"))
    }

    @Test("Programs: median, p90, estimate error, pushes and energy, with two charts each")
    func programs() {
        let response = page("/programs")
        #expect(response.status == 200)
        #expect(Self.count("class=\"program-row\"", in: response.body) == 3)
        // eco_50: 2 h 14 min and 2 h; median 2 h 7 min, p90 2 h 14 min; errors -4 and +6 min.
        #expect(response.body.contains("2 h 7 min") && response.body.contains("2 h 14 min") && response.body.contains("+1 min"))
        #expect(response.body.contains("0.96 kWh"), "median energy of 0.82 and 1.10")
        // eco_50 has both charts, the aborted washer cycle a duration but no estimate, the open one neither.
        #expect(Self.count("<svg class=\"chart\"", in: response.body) == 3)
        #expect(Self.count("class=\"program-row\"", in: page("/programs", ["appliance": "washer"]).body) == 1)
    }

    @Test("The appliances now: the running cycle with its progress bar, the idle one with its last cycle")
    func appliancesNow() {
        let response = page("/")
        #expect(response.status == 200)
        #expect(response.body.contains("id=\"appliance-dishwasher\"") && response.body.contains("id=\"appliance-washer\""))
        #expect(response.body.contains("role=\"progressbar\" aria-valuenow=\"40\""), "the open cycle's progress")
        #expect(response.body.contains("Intensive 70"))
        #expect(response.body.contains("<span class=\"state aborted\">aborted</span>"), "the washer's last cycle")
    }

    @Test("Pages are dark-mode aware, load nothing from elsewhere and run no script")
    func selfContained() {
        for path in ["/", "/cycles", "/cycle", "/programs"] {
            let body = page(path, path == "/cycle" ? ["id": "1"] : [:]).body
            #expect(body.contains("prefers-color-scheme:dark"))
            #expect(!body.contains("<script"))
            #expect(!body.contains("http://") && !body.contains("https://") && !body.contains("//fonts"))
            #expect(body.contains("name=\"viewport\""))
        }
    }

    @Test("Bad input is a 4xx with a short message", arguments: [
        ("/cycle", ["id": "-1"], 400), ("/cycle", ["id": "99999999999999999999999"], 400), ("/cycle", ["id": "1e3"], 400),
        ("/cycle", ["id": "999"], 404), ("/cycle", [:], 400), ("/cycles", ["since": "garbage"], 400),
        ("/cycles", ["since": "2026-02-30"], 400), ("/cycles", ["limit": "-5"], 400), ("/cycles", ["limit": "18446744073709551616"], 400),
        ("/cycles", ["outcome": "exploded"], 400), ("/cycles", ["since": "2026-11-05", "until": "2026-11-01"], 400),
        ("/cycles", ["program": String(repeating: "x", count: 5_000)], 400),
        ("/../etc/passwd", [:], 400), ("/cycles/..", [:], 400), ("//cycles", [:], 400), ("/nope", [:], 404),
        ("/cycle/1", [:], 404),
    ] as [(String, [String: String], Int)])
    func badInput(path: String, query: [String: String], status: Int) {
        let response = page(path, query)
        #expect(response.status == status)
        #expect(!response.body.contains("class=\"cycle-row\"") && !response.body.contains("Dishwasher ·"))
    }

    @Test("Only GET and HEAD; a bad ingress prefix is refused; no history yet is a 503")
    func refusals() {
        let post = site.respond(to: HistoryRequest(method: "POST", path: "/"), now: HistoryFixture.now)
        #expect(post.status == 405 && post.headers.contains { $0.name == "Allow" })
        #expect(page("/", ingress: "/api/hassio_ingress/a b\"<x>").status == 400)
        #expect(page("/", ingress: "/api/../x").status == 400)
        let missing = HistorySite(databasePath: fixture.files.path("missing.sqlite"))
        #expect(missing.respond(to: HistoryRequest(path: "/")).status == 503)
    }

    @Test("The allow list: empty allows all; else only the addresses listed, IPv4-mapped IPv6 included")
    func allowList() throws {
        func v4(_ text: String) -> (sockaddr_in, Int) {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            _ = inet_pton(AF_INET, text, &address.sin_addr)
            return (address, MemoryLayout<sockaddr_in>.size)
        }
        func v6(_ text: String) -> (sockaddr_in6, Int) {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            _ = inet_pton(AF_INET6, text, &address.sin6_addr)
            return (address, MemoryLayout<sockaddr_in6>.size)
        }
        func allows<T>(_ list: ClientAllowList, _ address: (T, Int)) -> Bool {
            var value = address.0
            return withUnsafePointer(to: &value) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { list.allows($0, length: socklen_t(address.1)) }
            }
        }
        let ingress = try ClientAllowList(["172.30.32.2"])
        #expect(allows(ingress, v4("172.30.32.2")))
        #expect(!allows(ingress, v4("172.30.32.3")))
        #expect(!allows(ingress, v4("127.0.0.1")))
        #expect(allows(ingress, v6("::ffff:172.30.32.2")))
        #expect(!allows(ingress, v6("::1")))
        let everyone = try ClientAllowList([])
        #expect(allows(everyone, v4("10.1.2.3")) && allows(everyone, v6("::1")))
        #expect(allows(try ClientAllowList(["::1"]), v6("::1")))
        #expect(throws: HistoryServerError.self) { try ClientAllowList(["172.30.32.0/23"]) }
        #expect(throws: HistoryServerError.self) { try ClientAllowList(["supervisor"]) }
    }

    @Test("The http config keys: defaults, values, and refusals that name the key")
    func configuration() throws {
        let defaults = try ConfigurationLoader.parse(Data("{}".utf8), file: "c.json")
        #expect(defaults.httpListen == "127.0.0.1" && defaults.httpPort == 8099 && defaults.httpAllow.isEmpty)
        let set = try ConfigurationLoader.parse(Data(#"{"http": {"listen": "::", "port": 0, "allow": ["172.30.32.2", "::1"]}}"#.utf8), file: "c.json")
        #expect(set.httpListen == "::" && set.httpPort == 0 && set.httpAllow == ["172.30.32.2", "::1"])
        for (bad, key) in [(#"{"http": {"listen": "localhost"}}"#, "http.listen"), (#"{"http": {"port": 70000}}"#, "http.port"),
                           (#"{"http": {"allow": ["172.30.32.0/23"]}}"#, "http.allow[0]"), (#"{"http": {"prot": 1}}"#, "http.prot")] {
            #expect { try ConfigurationLoader.parse(Data(bad.utf8), file: "c.json") } throws: { error in
                "\(error)".contains(key)
            }
        }
    }
}
