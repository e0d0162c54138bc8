import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// commands in on fd 3, answers out on fd 4, each a JSON object ended by a NUL byte), for
/// pages that need more than `--screenshot` gives: Home Assistant's frontend logs in,
/// opens its WebSocket and renders everything inside shadow roots, so `--dump-dom` shows
/// an empty `<home-assistant>` and a fixed `--virtual-time-budget` never settles. Here a
/// test waits until the page's text (shadow roots included) holds what it expects, then
/// takes the screenshot. No port is opened: the protocol runs over the pipe.
///
///     let browser = try ChromiumDevTools(profile: dir)
///     try browser.open("http://127.0.0.1:8123/config/devices/dashboard", width: 1280, height: 900)
///     let text = try browser.waitForText(containing: ["Dishwasher"], timeout: .seconds(60))
///     let png = try browser.screenshot()
final class ChromiumDevTools {
    static var executable: String? { HistoryPageBrowserTests.chromium }

    private let process = Process()
    private let commands = Pipe()
    private let answers = Pipe()
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session: String?

    /// Starts chromium with a fresh profile in `profile` (a directory the test removes).
    init(profile: String) throws {
        guard let chromium = Self.executable else { throw HomeAssistantTestError("chromium is not installed") }
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // fd 3 and 4 are what --remote-debugging-pipe uses; stdin and stdout are the pipes.
        process.arguments = ["-c", #"exec "$0" "$@" 3<&0 4>&1 </dev/null >/dev/null"#, chromium,
                             "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                             "--no-first-run", "--no-default-browser-check", "--user-data-dir=\(profile)",
                             "--remote-debugging-pipe", "about:blank"]
        process.standardInput = commands
        process.standardOutput = answers
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { close() }

    /// Ends chromium (SIGTERM, then SIGKILL after 5 s).
    func close() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// A new tab of `width` × `height` CSS pixels (scale 1) showing `url`.
    func open(_ url: String, width: Int, height: Int) throws {
        if session == nil {
            let target = try command("Target.createTarget", ["url": "about:blank"], inSession: false)
            guard let targetID = target["targetId"] as? String else { throw HomeAssistantTestError("no targetId: \(target)") }
            let attached = try command("Target.attachToTarget", ["targetId": targetID, "flatten": true], inSession: false)
            session = attached["sessionId"] as? String
        }
        _ = try command("Emulation.setDeviceMetricsOverride",
                        ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
        _ = try command("Page.navigate", ["url": url])
    }

    /// The page's address and its visible text, shadow roots and same-origin frames included
    /// (each frame's address first), one text node a line.
    func pageText() throws -> String {
        let script = #"""
            (() => { const out = [location.href]; const skip = new Set(["STYLE", "SCRIPT", "TEMPLATE"]);
              const walk = (node) => { if (node.shadowRoot) walk(node.shadowRoot);
                if (node.tagName === "IFRAME" && node.contentDocument) {
                  out.push(node.contentDocument.location.href); walk(node.contentDocument.documentElement); }
                for (const child of node.childNodes) {
                  if (child.nodeType === 3) { const text = child.textContent.trim(); if (text) out.push(text); }
                  else if (child.nodeType === 1 && !skip.has(child.tagName)) walk(child); } };
              walk(document.documentElement); return out.join("\n"); })()
            """#
        let answer = try command("Runtime.evaluate", ["expression": script, "returnByValue": true])
        return ((answer["result"] as? [String: Any])?["value"] as? String) ?? ""
    }

    /// Polls the page's text (every 250 ms, bounded) until it holds every one of `needles`
    /// and is the same twice running (the page has settled); returns it.
    func waitForText(containing needles: [String], timeout: Duration) throws -> String {
        let deadline = ContinuousClock.now + timeout
        var previous = ""
        while true {
            // Home Assistant's frontend navigates on its own (the login page hands over to the
            // app): an evaluation that meets a navigation is asked again, not a failure.
            let text = try pageTextUnlessNavigating() ?? ""
            if needles.allSatisfy(text.contains), text == previous { return text }
            guard ContinuousClock.now < deadline else {
                throw HomeAssistantTestError("the page never showed \(needles.filter { !text.contains($0) }); it shows:\n\(text.prefix(3000))")
            }
            previous = text
            usleep(250_000)
        }
    }

    /// The page's text, or nil when the evaluation met a navigation (the page it ran in went
    /// away: "Inspected target navigated or closed", "Execution context was destroyed").
    private func pageTextUnlessNavigating() throws -> String? {
        do { return try pageText() } catch let error as HomeAssistantTestError {
            let text = "\(error)"
            if text.contains("navigated or closed") || text.contains("context was destroyed") { return nil }
            throw error
        }
    }

    /// The viewport as a PNG.
    func screenshot() throws -> Data {
        let answer = try command("Page.captureScreenshot", ["format": "png"])
        guard let base64 = answer["data"] as? String, let png = Data(base64Encoded: base64) else {
            throw HomeAssistantTestError("Page.captureScreenshot answered no PNG")
        }
        return png
    }

    // MARK: The protocol

    /// Sends one command and waits (30 s) for its answer; events in between are dropped.
    private func command(_ method: String, _ parameters: [String: Any], inSession: Bool = true) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if inSession, let session { message["sessionId"] = session }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        commands.fileHandleForWriting.write(data)
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            while let end = buffer.firstIndex(of: 0) {
                let raw = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let answer = try JSONSerialization.jsonObject(with: raw) as? [String: Any],
                      answer["id"] as? Int == nextID else { continue }
                if let error = answer["error"] { throw HomeAssistantTestError("\(method): \(error)") }
                return answer["result"] as? [String: Any] ?? [:]
            }
            try readSome(until: deadline, what: method)
        }
    }

    private func readSome(until deadline: ContinuousClock.Instant, what: String) throws {
        let descriptor = answers.fileHandleForReading.fileDescriptor
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let left = deadline - ContinuousClock.now
        let milliseconds = max(0, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
        guard poll(&ready, 1, milliseconds) > 0 else { throw HomeAssistantTestError("chromium did not answer \(what) in time") }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(descriptor, &chunk, chunk.count)
        guard count > 0 else { throw HomeAssistantTestError("chromium closed its DevTools pipe during \(what)") }
        buffer.append(contentsOf: chunk[..<count])
    }
}
