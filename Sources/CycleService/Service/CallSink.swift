import HomeAssistantAPI

/// Where the runner sends Supernotify calls: Home Assistant, or the demo's printer.
public protocol CallSink: Sendable {
    func notify(_ request: CallRequest) async -> ServiceCallOutcome
}
