import CBenchSupport
import Foundation

/// One timed run over a whole corpus (decoding PNGs, inflating a pack).
public struct RunMeasurement: CustomStringConvertible {
    public var seconds: Double
    public var decodedBytes: Int
    public var checksum: UInt64
    /// Peak resident memory during the run (VmHWM, reset before it starts).
    public var peakResident: Int
    /// Peak minus the resident memory just before the run.
    public var peakGrowth: Int
    /// Minor page faults during the run (fresh memory touched for the first time).
    public var pageFaults: Int
    /// Processor time the whole process used during the run (user + system, every thread).
    public var cpuSeconds: Double
    /// The part of ``cpuSeconds`` spent in the kernel (system calls, page faults).
    public var systemSeconds: Double = 0

    /// A measurement made elsewhere (in a child process), field by field.
    public init(
        seconds: Double, decodedBytes: Int, checksum: UInt64, peakResident: Int = 0, peakGrowth: Int = 0, pageFaults: Int = 0,
        cpuSeconds: Double = 0, systemSeconds: Double = 0
    ) {
        self.seconds = seconds
        self.decodedBytes = decodedBytes
        self.checksum = checksum
        self.peakResident = peakResident
        self.peakGrowth = peakGrowth
        self.pageFaults = pageFaults
        self.cpuSeconds = cpuSeconds
        self.systemSeconds = systemSeconds
    }

    public var throughput: Double { Double(decodedBytes) / 1e6 / seconds }
    public var description: String { "\(decodedBytes) bytes, checksum \(checksum), \(seconds) s" }
}

/// Peak resident memory of this process over an interval, from /proc (Linux).
public struct MemoryProbe {
    let residentBefore: Int
    let faultsBefore: Int
    let cpuBefore: Double
    let systemBefore: Double

    public static func start() -> MemoryProbe {
        // Give memory freed by the previous run back to the system, so it does not hide in RSS...
        bench_release_free_memory()
        // ...then reset VmHWM, the peak resident set size, to the current size (Linux >= 4.0).
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        if descriptor >= 0 {
            _ = write(descriptor, "5", 1)
            close(descriptor)
        }
        return MemoryProbe(residentBefore: status("VmRSS"), faultsBefore: minorFaults(), cpuBefore: cpuTime(), systemBefore: systemTime())
    }

    public static func minorFaults() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_minflt
    }

    public static func cpuTime() -> Double {
        let usage = self.usage()
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The process's processor time in the kernel so far.
    public static func systemTime() -> Double { seconds(usage().ru_stime) }

    private static func usage() -> rusage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage
    }

    private static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

    /// The measurement of a run that took `seconds`; `cpuEnd` is ``cpuTime()`` when the timed
    /// work ended (by default now, for a run that checks its results before calling this).
    public func finish(
        seconds: Double, decodedBytes: Int, checksum: UInt64, cpuEnd: Double? = nil, systemEnd: Double? = nil, faultsEnd: Int? = nil
    ) -> RunMeasurement {
        let peak = Self.status("VmHWM")
        return RunMeasurement(
            seconds: seconds, decodedBytes: decodedBytes, checksum: checksum,
            peakResident: peak, peakGrowth: max(0, peak - residentBefore),
            pageFaults: (faultsEnd ?? Self.minorFaults()) - faultsBefore, cpuSeconds: (cpuEnd ?? Self.cpuTime()) - cpuBefore,
            systemSeconds: (systemEnd ?? Self.systemTime()) - systemBefore)
    }

    /// A `/proc/self/status` field, in bytes.
    public static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
}

extension Duration {
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    public var inSeconds: Double { seconds }
}

public func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1e6) }

public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
