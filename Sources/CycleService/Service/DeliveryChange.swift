import CycleCore

/// A change of the household's or a person's settings through the API; nil: every change
/// of that scope dropped, the configuration's settings again.
public enum DeliveryChange: Sendable, Equatable {
    /// The household's keys (`quietHours`; `people` unused).
    case household(DeliveryOverrides?)
    /// One person's keys, by `person.*` entity.
    case person(String, PersonOverrides?)
}
