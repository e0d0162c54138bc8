/// The progress percentages at which a running cycle sends an update (PAYLOADS.md,
/// "Progress steps"): coarse steps every `step` below `fineFrom`, fine steps every
/// `fineStep` from it, never 100; or an explicit list, all coarse.
public enum ProgressSteps: Sendable, Equatable, Codable {
    case regular(step: Int, fineFrom: Int, fineStep: Int)
    case at([Int])

    /// 10, 20, ... 90, 92, 94, 96, 98.
    public static let `default` = ProgressSteps.regular(step: 10, fineFrom: 90, fineStep: 2)
}
