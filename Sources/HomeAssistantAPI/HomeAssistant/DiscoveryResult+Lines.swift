import CycleCore

/// How discovery's answer is said to a person (`cycletrack check`) and in `run`'s log.
extension DiscoveredDevice {
    /// Its kind and each role's entity, grouped by how it was found:
    /// "washer (miele); by table: operation_state sensor.w_status, remaining_time sensor.w_remaining; by fallback: none".
    public var rolesSummary: String {
        func group(_ source: RoleSource) -> String {
            let roles = entities.keys.filter { (sources[$0] ?? .fallback) == source }.sorted()
            return roles.isEmpty ? "none" : roles.map { "\($0.rawValue) \(entities[$0] ?? "")" }.joined(separator: ", ")
        }
        return "\(kind.rawValue) (\(profile.rawValue)); by table: \(group(.table)); by fallback: \(group(.fallback))"
    }
}

extension DiscoveryResult {
    /// One line per device seen, followed or left out, and a first line on the registry read:
    /// `(label, detail)` pairs, in HA's device order.
    public var lines: [(label: String, detail: String)] {
        var lines: [(label: String, detail: String)] = []
        lines.append(("registry", registryProblem.map {
            "not read (\($0)): every role found by the fallback rules"
        } ?? "read: roles by each integration's keys (docs/CYCLES.md, \"Keys and roles\")"))
        for device in devices {
            lines.append(("followed \(device.name) (\(device.applianceID))", device.rolesSummary))
        }
        for device in skipped {
            lines.append(("left out \(device.name)", device.reason))
        }
        return lines
    }
}
