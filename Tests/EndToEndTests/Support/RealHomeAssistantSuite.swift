import Testing

/// What every suite against a real Home Assistant declares, in one place:
///
///     @Suite("... against a real Home Assistant", .serialized, .realHomeAssistant)
///     struct SomethingWithHomeAssistantTests {
///         let ha: HomeAssistantProcess
///         init() async throws { ha = try await .started() }
///     }
///
/// `.realHomeAssistant` runs the suite where a Home Assistant of `HomeAssistantProcess.version`
/// can be started, and skips it with the reason elsewhere; with `CYCLETRACK_REQUIRE_HA=1`
/// (CI) it runs anyway, so every test fails with that reason instead of skipping.
/// `.realHomeAssistant(only:)` for a suite that runs on one release only.
/// CI runs every suite of `EndToEndTests` on HA 2026.11.0; to run on 2024.3.3 as well, a
/// suite's name must be in `OLDER_HA_SUITES` of scripts/test.sh (docs/TESTING.md).
extension Trait where Self == ConditionTrait {
    static var realHomeAssistant: Self {
        .enabled(if: HomeAssistantProcess.shouldRun,
                 Comment(rawValue: HomeAssistantProcess.availability() ?? "Home Assistant is available"))
    }

    static func realHomeAssistant(only version: String) -> Self {
        .enabled(if: HomeAssistantProcess.shouldRun && HomeAssistantProcess.version == version,
                 Comment(rawValue: HomeAssistantProcess.availability()
                     ?? "runs on Home Assistant \(version) only (CYCLETRACK_HA_VERSION)"))
    }
}

extension HomeAssistantProcess {
    /// A fresh Home Assistant of `version`, started: answering, onboarded, RUNNING.
    static func started(version: String = HomeAssistantProcess.version) async throws -> HomeAssistantProcess {
        let ha = try HomeAssistantProcess(version: version)
        try await ha.start()
        return ha
    }
}
