import Foundation
import Testing
@testable import HistoryWeb

/// Every text colour in the history page's stylesheet against the background it is
/// drawn on, light and dark, is at least WCAG AA's 4.5:1. The stylesheet itself is read:
/// its variables per scheme, then each rule that sets a text colour (`color`, or `fill`
/// for SVG text) or a background.
///
/// A rule with a background but no colour of its own takes the colour of the rule its
/// first class names (`.pill.kind-end` from `.pill`), else the body's text. A rule with
/// a colour but no background may sit on any of the page's surfaces (`--bg`, `--card`,
/// `--soft`) and must pass on each.
@Suite("History page contrast")
struct HistoryPageContrastTests {
    /// Rules whose elements carry no text: swatches, bars, progress fills.
    static let textless = [".swatch-", ".bar", ".legend i", ".chart .", ".push-marker", ".kind-"]
    static let surfaces = ["--bg", "--card", "--soft"]

    struct Rule {
        var selector: String
        var declarations: [String: String]
    }

    /// Top-level blocks of `css`: (prelude, body), nested blocks kept whole in the body.
    static func blocks(_ css: String) -> [(String, String)] {
        var result: [(String, String)] = []
        var depth = 0
        var prelude = "", body = ""
        for character in css {
            switch character {
            case "{":
                if depth > 0 { body.append(character) }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0 {
                    result.append((prelude.trimmingCharacters(in: .whitespacesAndNewlines), body))
                    prelude = ""
                    body = ""
                } else {
                    body.append(character)
                }
            default:
                if depth == 0 { prelude.append(character) } else { body.append(character) }
            }
        }
        return result
    }

    static func declarations(_ body: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in body.split(separator: ";") {
            guard let colon = part.firstIndex(of: ":") else { continue }
            let name = part[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
            let value = part[part.index(after: colon)...].replacingOccurrences(of: "!important", with: "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            result[name] = value
        }
        return result
    }

    /// The variables of each scheme and the rules (those inside `@media (max-width…)` too).
    static func stylesheet() -> (light: [String: String], dark: [String: String], rules: [Rule]) {
        var light: [String: String] = [:], dark: [String: String] = [:], rules: [Rule] = []
        func read(_ css: String) {
            for (prelude, body) in blocks(css) {
                if prelude == ":root" {
                    light.merge(declarations(body)) { $1 }
                } else if prelude.contains("prefers-color-scheme:dark") {
                    for (inner, innerBody) in blocks(body) where inner == ":root" { dark.merge(declarations(innerBody)) { $1 } }
                } else if prelude.hasPrefix("@media") {
                    read(body)
                } else {
                    for selector in prelude.split(separator: ",") {
                        rules.append(Rule(selector: selector.trimmingCharacters(in: .whitespaces), declarations: declarations(body)))
                    }
                }
            }
        }
        read(PageLayout.style)
        return (light, light.merging(dark) { $1 }, rules)
    }

    static func resolve(_ value: String, _ variables: [String: String]) -> String? {
        var value = value.trimmingCharacters(in: .whitespaces)
        for _ in 0..<5 where value.hasPrefix("var(") {
            let name = String(value.dropFirst(4).prefix { $0 != ")" && $0 != "," })
            guard let next = variables[name] else { return nil }
            value = next
        }
        return value.hasPrefix("#") ? value : nil
    }

    static func luminance(_ hex: String) -> Double {
        var digits = Array(hex.dropFirst())
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        let channels = stride(from: 0, to: 6, by: 2).map { Double(Int(String(digits[$0...$0 + 1]), radix: 16) ?? 0) / 255 }
        let linear = channels.map { $0 <= 0.03928 ? $0 / 12.92 : Foundation.pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// Each (selector, foreground, background) pair of text on a background, unresolved.
    static func pairs(_ rules: [Rule]) -> [(selector: String, foreground: String, background: String)] {
        func colour(of rule: Rule) -> String? {
            rule.declarations["color"] ?? (rule.selector.hasSuffix("text") ? rule.declarations["fill"] : nil)
        }
        var result: [(String, String, String)] = []
        for rule in rules where !textless.contains(where: { rule.selector.hasPrefix($0) }) {
            let background = rule.declarations["background"]
            if let foreground = colour(of: rule) {
                if let background {
                    result.append((rule.selector, foreground, background))
                } else {
                    result += surfaces.map { (rule.selector, foreground, "var(\($0))") }
                }
            } else if let background {
                let base = "." + (rule.selector.split(separator: ".").first.map(String.init) ?? "")
                let foreground = rules.first { $0.selector == base }.flatMap(colour(of:)) ?? "var(--text)"
                result.append((rule.selector, foreground, background))
            }
        }
        return result
    }

    @Test("The stylesheet has the rules this test reads: both schemes, pills, states, buttons, chart text")
    func readsTheStylesheet() {
        let sheet = Self.stylesheet()
        #expect(sheet.light["--text"] != nil && sheet.dark["--text"] != sheet.light["--text"])
        let selectors = Set(Self.pairs(sheet.rules).map(\.selector))
        for expected in [".pill.kind-quiet", ".pill.kind-clear", ".pill.kind-reminder", ".state.running", "button",
                         "nav a[aria-current]", ".chart text", ".muted", "a", "body"] {
            #expect(selectors.contains(expected), "a colour pair for \(expected)")
        }
    }

    @Test("Every text colour pair passes 4.5:1", arguments: ["light", "dark"])
    func contrastAA(scheme: String) {
        let sheet = Self.stylesheet()
        let variables = scheme == "light" ? sheet.light : sheet.dark
        for pair in Self.pairs(sheet.rules) {
            guard let foreground = Self.resolve(pair.foreground, variables), let background = Self.resolve(pair.background, variables) else {
                Issue.record("\(scheme): \(pair.selector) has a colour this test can't resolve: \(pair.foreground) on \(pair.background)")
                continue
            }
            let ratio = Self.contrast(foreground, background)
            #expect(ratio >= 4.5, "\(scheme): \(pair.selector) \(foreground) on \(background) is \((ratio * 100).rounded() / 100):1")
        }
    }
}
