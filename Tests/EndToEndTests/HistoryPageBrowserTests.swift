import CycleCore
import CycleHistory
import Foundation
import Testing

/// The history page in a real browser: `cycletrack serve` over a recorded history,
/// headless Chromium (Debian's `chromium`) loading each page. The DOM it builds is
/// checked (the cycle rows, the push markers against the stored pushes), and the
/// screenshots of a timeline and of the program statistics go to docs/ for the README.
///
/// Without chromium the tests are skipped with the reason (`.chromium`), unless $CI or
/// `CYCLETRACK_REQUIRE_HA=1` is set: then they run and fail.
@Suite("History page in Chromium", .serialized)
struct HistoryPageBrowserTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// docs/ when `CYCLETRACK_UPDATE_SCREENSHOTS=1` (to refresh the README's pictures),
    /// else a temporary folder, so that a test run leaves the work tree as it was.
    static let docs: String = {
        if ProcessInfo.processInfo.environment["CYCLETRACK_UPDATE_SCREENSHOTS"] == "1" {
            return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("docs").path
        }
        let folder = NSTemporaryDirectory() + "cycletrack-screenshots"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Runs chromium headless with `arguments` and the URL; returns its stdout.
    static func chromium(_ arguments: [String], url: String, profile: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(chromium))
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                             "--no-first-run", "--user-data-dir=\(profile)", "--virtual-time-budget=2000"] + arguments + [url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// `cycletrack serve` over `database` on a free port, in Berlin time, and its URL.
    static func serve(_ database: String) throws -> (server: CycletrackProcess, url: String) {
        let server = try CycletrackProcess(["serve", "--db", database, "--port", "0"], environment: ["TZ": "Europe/Berlin"])
        #expect(server.waitForLog("event=history_page"))
        let url = try #require(server.stderrSoFar.firstMatch(of: /url=(http:\/\/127\.0\.0\.1:\d+\/)/)?.output.1).description
        return (server, url)
    }

    @Test("Each page in Chromium: the rows and push markers of the stored history; screenshots to docs/",
          .chromium("the history page's browser test is"))
    func pagesInChromium() throws {
        let scratch = try Scratch()
        let database = scratch.path + "/history.sqlite"
        let written = try RecordedHistory.write(to: database, now: Date())
        let (server, url) = try Self.serve(database)
        defer {
            server.signal(SIGTERM)
            #expect(server.wait(timeout: 20).status == 0, "serve exits 0 on SIGTERM")
        }
        let profile = scratch.path + "/chromium"

        let store = try HistoryStore(path: database, mode: .readOnly)
        let list = try Self.chromium(["--dump-dom"], url: url + "cycles", profile: profile)
        #expect(Self.count("class=\"cycle-row\"", in: list) == written.cycles)
        #expect(try store.cycles(matching: CycleFilter()).count == written.cycles)

        let timelineURL = url + "cycle?id=\(written.timelineCycle)"
        let timeline = try Self.chromium(["--dump-dom"], url: timelineURL, profile: profile)
        let pushes = try store.pushes(cycleID: written.timelineCycle)
        #expect(pushes.count > 10)
        #expect(Self.count("class=\"push-marker", in: timeline) == pushes.count, "a marker per stored push")
        #expect(Self.count("push-marker kind-quiet held", in: timeline) == 1, "the held-back call, hollow")
        #expect(timeline.contains("id=\"estimate-chart\""))

        let now = try Self.chromium(["--dump-dom"], url: url, profile: profile)
        #expect(now.contains("role=\"progressbar\""), "the running washer's progress bar")
        #expect(Self.count("class=\"card appliance\"", in: now) == 2)

        let programs = try Self.chromium(["--dump-dom"], url: url + "programs", profile: profile)
        #expect(Self.count("class=\"program-row\"", in: programs) == 2)

        for (page, file, height) in [(timelineURL, "history-timeline.png", 1_180), (url + "programs", "history-programs.png", 1_250)] {
            let path = Self.docs + "/" + file
            try? FileManager.default.removeItem(atPath: path)
            _ = try Self.chromium(["--window-size=900,\(height)", "--screenshot=\(path)"], url: page, profile: profile)
            let png = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file) is a PNG")
        }
    }
}
