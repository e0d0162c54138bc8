import CycleCore

/// One `supernotify.notify` call to make: the body is what goes over the wire; the
/// rest is for sinks that show calls to a person (the demo).
public struct CallRequest: Sendable {
    public var applianceID: String
    public var kind: CallKind
    public var body: String
}
