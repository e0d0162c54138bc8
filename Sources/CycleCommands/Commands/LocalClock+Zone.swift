import CycleCore
import LocalTime

extension LocalClock {
    /// The local clock quiet hours are read on: `$TZ`, else `/etc/localtime`, else UTC,
    /// converted as `query` converts (`LocalTimeZone`). The core sees only this function.
    public static func local(environment: [String: String]) -> LocalClock {
        let zone = LocalTimeZone.resolve(environment: environment)
        return LocalClock { zone.secondsFromGMT(for: $0) }
    }
}
