/// Every user-facing text, with `{placeholder}`s; replaceable from the configuration
/// so a German household reads "Geschirrspüler fertig".
public struct Texts: Sendable, Equatable, Codable {
    public var started = "{name} started"
    public var startedProgram = "{name} started: {program}"
    public var paused = "Paused"
    public var actionRequired = "Action required"
    public var running = "Running"
    public var percentComplete = "{percent}% complete"
    public var finished = "{name} finished"
    public var aborted = "{name} aborted"
    public var failed = "{name} failed"
    public var lost = "{name} stopped reporting"
    public var doneIn = "{program} done in {duration}"
    public var doneInNoProgram = "Done in {duration}"
    public var hours = "h"
    public var minutes = "min"

    public init() {}
}
