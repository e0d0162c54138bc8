/// A system call the stand-in server needed failed.
public struct StandInError: Error, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. `bind`.
    public var what: String
    /// Its errno (or return code).
    public var code: Int32

    public init(what: String, code: Int32) {
        self.what = what
        self.code = code
    }

    public var description: String { "stand-in server: \(what) failed with code \(code)" }
}
