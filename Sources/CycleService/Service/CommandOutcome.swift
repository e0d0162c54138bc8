/// How the runner answered a command.
public enum CommandOutcome: Sendable, Equatable {
    /// Done: the appliance as it is now.
    case done(ApplianceSnapshot)
    /// A household change done: the household as it is now.
    case household(HouseholdSnapshot)
    /// The integration recorded as configured or not; when configured, none of the
    /// service's REST states is left in HA.
    case integration(configured: Bool)
    case unknownAppliance
    /// A person the configuration's `people` doesn't have.
    case unknownPerson
    /// `endActivity` for an appliance without a Live Activity showing.
    case noActivity
    /// Not done: the store refused, or the service is stopping (the text says).
    case refused(String)
}
