import Foundation
import Testing

/// What a test that needs headless Chromium declares: it runs where Debian's `chromium` is
/// installed, and is skipped with the reason elsewhere (listed in the test output). Where
/// the tools are required (`$CI` set, or `CYCLETRACK_REQUIRE_HA=1`, which scripts/test.sh
/// sets as root after installing chromium) it runs anyway, so a missing chromium fails it.
extension Trait where Self == ConditionTrait {
    static func chromium(_ what: String) -> Self {
        .enabled(if: HistoryPageBrowserTests.chromium != nil || ChromiumRequirement.required,
                 Comment(rawValue: "chromium is not installed (apt-get install chromium): \(what) skipped"))
    }
}

enum ChromiumRequirement {
    static var required: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["CI"] != nil || environment["CYCLETRACK_REQUIRE_HA"] == "1"
    }
}
