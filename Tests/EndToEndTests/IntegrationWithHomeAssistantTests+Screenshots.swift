import Foundation
import Testing

/// A step of the integration's scenario (the cycle running), on the same Home Assistant: its frontend
/// in headless Chromium (logged in by trusted_networks), the dishwasher's device page,
/// the service's device page, the integration's page and the Cycles panel, each checked for what it must
/// show (the page text, shadow roots included) and for showing no secret, and
/// screenshotted: to docs/screenshots/ with `CYCLETRACK_WRITE_SCREENSHOTS=1` (or
/// `CYCLETRACK_UPDATE_SCREENSHOTS=1`, as the history page's), else a temporary folder.
extension IntegrationWithHomeAssistantTests {
    static let screenshotFolder: String = {
        let environment = ProcessInfo.processInfo.environment
        let write = environment["CYCLETRACK_WRITE_SCREENSHOTS"] == "1" || environment["CYCLETRACK_UPDATE_SCREENSHOTS"] == "1"
        let path = write ? HomeAssistantProcess.repositoryRoot.appendingPathComponent("docs/screenshots").path
            : NSTemporaryDirectory() + "cycletrack-screenshots-20"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static let screenshotWidth = 1280

    struct Page {
        var file: String
        var path: String
        /// The viewport's height: the page's cards, not much blank below.
        var height: Int
        var shows: [String]
    }

    func takeScreenshots(ids: EntityIDs) async throws {
        let pages = [
            Page(file: "ha-device-dishwasher.png", path: "/config/devices/device/\(ids.applianceDevice)", height: 1960,
                 shows: ["Dishwasher", "Cycle state", "Cycle running", "Cycle program", "Progress step", "End Live Activity", "Notify start", "Last cycle duration"]),
            Page(file: "ha-service-device.png", path: "/config/devices/device/\(ids.serviceDevice)", height: 720,
                 shows: ["cycletrack", "Appliance cycle service", "Pushes today", "Pushes left today"]),
            Page(file: "ha-integration-entry.png", path: "/config/integrations/integration/cycletrack", height: 480,
                 shows: ["cycletrack", "1 service", "entities"]),
            // The sidebar panel: its frame opened a session by a signed path and shows the page from there.
            Page(file: "ha-cycles-panel.png", path: "/cycletrack", height: 900,
                 shows: ["/api/cycletrack/history/", "Appliances", "Dishwasher"]),
        ]
        let secrets = [try String(contentsOf: ha.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
                       try String(contentsOfFile: scratch.path + "/cycletrack.api-key", encoding: .utf8)
                           .trimmingCharacters(in: .whitespacesAndNewlines)]
        let browser = try ChromiumDevTools(profile: scratch.path + "/chromium")
        defer { browser.close() }
        for page in pages {
            try browser.open(ha.url.absoluteString + page.path, width: Self.screenshotWidth, height: page.height)
            let text = try browser.waitForText(containing: page.shows, timeout: .seconds(120))
            #expect(text.hasPrefix(ha.url.absoluteString + page.path), "logged in by itself, on \(page.path): \(text.prefix(200))")
            #expect(!secrets.contains { text.contains($0) }, "\(page.file) shows no token or key")
            #expect(!text.contains("authSig"), "\(page.file): no signed path is left in an address")
            let png = try browser.screenshot()
            #expect(Self.pngSize(png).map { [$0.width, $0.height] } == [Self.screenshotWidth, page.height], "\(page.file)")
            let path = Self.screenshotFolder + "/" + page.file
            try png.write(to: URL(fileURLWithPath: path))
            print("IntegrationWithHomeAssistantTests: \(path) (\(png.count) bytes)")
        }
    }

    /// Width and height from a PNG's IHDR chunk; nil when `data` is not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR" else { return nil }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}
