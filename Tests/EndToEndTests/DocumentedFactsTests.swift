import CycleCore
import CycleCommands
import CycleHistory
import CycleService
import Foundation
import HistoryWeb
import Testing

/// Where a document states a fact the code decides, the code is asked and the two compared:
/// the API's connection limit, the README's demo sample, the add-on's brands, the changelog's
/// versions, where the README tells the integration to find the service, what DECISIONS.md
/// says of waits and drops, and the screenshots' fixture bodies against what cycletrack sends.
@Suite struct DocumentedFactsTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: HomeAssistantProcess.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theAPIsConnectionLimitIsTheServers() throws {
        let api = try Self.text("docs/API.md")
        let stated = try #require(api.firstMatch(of: /at most (\d+) connections at once/)?.output.1, "docs/API.md states no connection limit")
        #expect(Int(stated) == HistoryServer.Settings(listen: "127.0.0.1", port: 0, allow: []).connectionLimit)
        let streams = try #require(api.firstMatch(of: /At most (\d+) event streams/)?.output.1)
        #expect(Int(streams) == ServiceLink(version: CycletrackVersion.current, instanceID: "docs").streamLimit)
        let body = try #require(api.firstMatch(of: /Request bodies up to (\d+) KiB/)?.output.1)
        let settings = HistoryServer.Settings(listen: "127.0.0.1", port: 0, allow: [])
        #expect(Int(body).map { $0 * 1024 } == settings.bodyLimit)
        let perClient = try #require(api.firstMatch(of: /and (\d+) from one client address/)?.output.1)
        #expect(Int(perClient) == settings.connectionsPerClient)
        let whole = try #require(api.firstMatch(of: /arrive\s+whole .*? within (\d+) s/.dotMatchesNewlines())?.output.1)
        #expect(Int(whole) == settings.requestDeadlineSeconds)
        let idle = try #require(api.firstMatch(of: /idle for (\d+) s is closed/)?.output.1)
        #expect(Int(idle) == settings.timeoutSeconds)
    }

    /// Every line of the README's demo sample but the elision is a line `cycletrack demo`
    /// prints, the clock times aside (the demo starts now).
    @Test func theREADMEsDemoSampleIsWhatTheDemoPrints() throws {
        let readme = try Self.text("README.md")
        let sample = try #require(readme.firstMatch(of: /```text\n(cycletrack demo:[\s\S]*?)```/)?.output.1)
        let scratch = try Scratch()
        let demo = try CycletrackProcess.run(["demo", "--db", scratch.path + "/demo.sqlite"], environment: ["TZ": "UTC"])
        #expect(demo.status == 0, "\(demo.stderr)")
        func shape(_ line: Substring) -> String {
            String(line.replacing(/\d\d:\d\d/, with: "HH:MM").replacing(/\[\d+%/, with: "[N%").replacing(/\d+ h \d+ min/, with: "D").replacing(/\s+/, with: " "))
        }
        let printed = Set(demo.stdout.split(separator: "\n").map(shape))
        let lines = sample.split(separator: "\n").filter { $0 != "..." }
        #expect(lines.count >= 5)
        for line in lines {
            #expect(printed.contains(shape(line)), "the README's demo sample shows a line the demo doesn't print: \(line)")
        }
        #expect(lines.contains { $0.contains(" is out ") }, "the README's sample leaves out who is out")
    }

    @Test(arguments: ["cycletrack/config.yaml", "cycletrack/README.md", "cycletrack/DOCS.md", "README.md"])
    func theAddOnNamesEveryBrandItDiscovers(page: String) throws {
        let text = try Self.text(page)
        for brand in BrandProfile.allCases where brand != .plug {
            #expect(text.contains(Self.brandName[brand] ?? brand.rawValue), "\(page) does not name \(brand)")
        }
    }

    static let brandName: [BrandProfile: String] = [
        .homeConnect: "Home Connect", .miele: "Miele", .lgThinQ: "LG ThinQ", .smartThings: "SmartThings",
        .whirlpool: "Whirlpool", .electrolux: "Electrolux",
    ]

    /// The changelog's newest section is the version being made (Unreleased) or this one.
    @Test func theChangelogReachesTheCurrentVersion() throws {
        let changelog = try Self.text("cycletrack/CHANGELOG.md")
        let first = try #require(changelog.firstMatch(of: /\n## ([^\n]+)\n/)?.output.1)
        #expect(first == "Unreleased" || first == CycletrackVersion.current, "the changelog starts at \(first)")
        #expect(changelog.contains("## \(CycletrackVersion.current)\n"))
    }

    /// The README's URL for the integration is one a default install listens on.
    @Test func theREADMEsServiceURLIsWhereADefaultInstallListens() throws {
        let readme = try Self.text("README.md")
        let urls = readme.matches(of: /`(http:\/\/[^`]+:8099)`/).map { String($0.output.1) }
        #expect(!urls.isEmpty)
        let defaults = Configuration(source: "defaults")
        for url in urls {
            #expect(url == "http://\(defaults.httpListen):\(defaults.httpPort)", "\(url) is not where a default install listens")
        }
    }

    /// DECISIONS.md on waits and drops against the store: they are rows of `pushes`.
    @Test func waitsAndDropsAreStoredAsDECISIONSSays() throws {
        let decisions = try Self.text("docs/DECISIONS.md")
        #expect(!decisions.contains("not stored as rows"))
        #expect(decisions.contains("stored as rows of `pushes` (`held`, `dropped`"))
        #expect(PushStatus(rawValue: "held") != nil && PushStatus(rawValue: "dropped") != nil)
    }

    /// The recorded history behind the screenshots writes each quiet update as cycletrack
    /// does: silent and alerting once (else the pictures say "with sound").
    @Test func theScreenshotsFixtureBodiesAreQuietAsSent() throws {
        let scratch = try Scratch()
        let database = scratch.path + "/history.sqlite"
        let written = try RecordedHistory.write(to: database, now: Date())
        let store = try HistoryStore(path: database, mode: .readOnly)
        let quiet = try store.pushes(cycleID: written.timelineCycle).filter { $0.kind == .quiet }
        #expect(!quiet.isEmpty)
        for push in quiet {
            let body = try #require(try JSONSerialization.jsonObject(with: Data(push.body.utf8)) as? [String: Any])
            let extra = try #require(body["extra_data"] as? [String: Any])
            #expect(extra["silent"] as? Bool == true, "\(push.body)")
            #expect(extra["alert_once"] as? Bool == true, "\(push.body)")
        }
    }
}
