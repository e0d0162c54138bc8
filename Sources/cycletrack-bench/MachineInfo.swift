import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The machine line: CPUs (`nproc`), CPU model (`lscpu`), memory (`free -h`), read
/// from the same sources those tools read.
enum MachineInfo {
    static func line() -> String {
        "machine: nproc \(processors()), \(model()), memory \(memory())"
    }

    /// CPUs this process may run on, as `nproc` counts them (its affinity mask,
    /// `Cpus_allowed_list: 0-1,4` in /proc/self/status), else the CPUs online.
    static func processors() -> Int {
        if let status = try? ProcessProbe.contents(of: "/proc/self/status"),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) {
            var count = 0
            for range in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
                let bounds = range.split(separator: "-").compactMap { Int($0.filter(\.isNumber)) }
                if bounds.count == 2 { count += bounds[1] - bounds[0] + 1 } else if bounds.count == 1 { count += 1 }
            }
            if count > 0 { return count }
        }
        return sysconf(Int32(_SC_NPROCESSORS_ONLN))
    }

    /// `model name` from /proc/cpuinfo, as lscpu's "Model name".
    static func model() -> String {
        guard let text = try? ProcessProbe.contents(of: "/proc/cpuinfo") else { return "unknown CPU" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingPrefix(" ").description
            }
        }
        return "unknown CPU"
    }

    /// Total and available memory from /proc/meminfo, in GiB like `free -h`.
    static func memory() -> String {
        guard let text = try? ProcessProbe.contents(of: "/proc/meminfo") else { return "unknown" }
        func kilobytes(_ key: String) -> Double? {
            for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
                return line.split { $0 == " " || $0 == "\t" }.dropFirst().first.flatMap { Double($0) }
            }
            return nil
        }
        guard let total = kilobytes("MemTotal") else { return "unknown" }
        let available = kilobytes("MemAvailable").map { ", \(Summary.fixed($0 / 1_048_576, 1)) GiB available" } ?? ""
        return "\(Summary.fixed(total / 1_048_576, 1)) GiB total\(available)"
    }
}
