#if canImport(Glibc)
import Glibc
#endif

/// Reads a running process's memory and CPU time from /proc (Linux).
struct ProcessProbe {
    struct Sample {
        /// VmRSS: resident now, bytes.
        var residentBytes: Double
        /// VmHWM: the peak resident size so far, bytes.
        var peakResidentBytes: Double
        /// RssAnon: the resident heap, stacks and other private memory, bytes.
        var anonymousBytes: Double
        /// RssFile: resident pages of mapped files (the binary, shared libraries), bytes.
        var fileBytes: Double
        /// utime + stime, seconds.
        var cpuSeconds: Double
    }

    let pid: pid_t
    private let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The resolution of the CPU times: one clock tick.
    var secondsPerTick: Double { 1 / ticksPerSecond }

    init(pid: pid_t) {
        self.pid = pid
    }

    func sample() throws(BenchError) -> Sample {
        let status = try Self.contents(of: "/proc/\(pid)/status")
        func kilobytes(_ key: String) throws(BenchError) -> Double {
            for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
                let fields = line.split { $0 == " " || $0 == "\t" }
                if fields.count >= 2, let value = Double(fields[1]) { return value * 1024 }
            }
            throw BenchError("/proc/\(pid)/status has no \(key) line")
        }
        let stat = try Self.contents(of: "/proc/\(pid)/stat")
        // Fields after the command name (which may hold spaces) in parentheses: state is
        // field 3, utime 14 and stime 15, counted from 1 over the whole line.
        guard let close = stat.lastIndex(of: ")") else { throw BenchError("/proc/\(pid)/stat has no ')'") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("/proc/\(pid)/stat has no utime/stime fields")
        }
        return Sample(residentBytes: try kilobytes("VmRSS"), peakResidentBytes: try kilobytes("VmHWM"),
                      anonymousBytes: try kilobytes("RssAnon"), fileBytes: try kilobytes("RssFile"),
                      cpuSeconds: (user + system) / ticksPerSecond)
    }

    /// The process's CPU time (user and system, every thread, ended ones included) in
    /// seconds, from the kernel's CPU-time clock for it (`clock_getcpuclockid`), which
    /// counts nanoseconds: /proc's utime and stime count 10-ms ticks, as coarse as what
    /// an idle minute costs.
    func cpuClockSeconds() throws(BenchError) -> Double {
        var clock = clockid_t()
        let result = clock_getcpuclockid(pid, &clock)
        guard result == 0 else {
            throw BenchError("clock_getcpuclockid(\(pid)): \(String(cString: strerror(result)))")
        }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else {
            throw BenchError("clock_gettime for process \(pid): \(String(cString: strerror(errno)))")
        }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A /proc file (their size reads as 0, so read until the end).
    static func contents(of path: String) throws(BenchError) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
