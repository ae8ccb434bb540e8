import Glibc

/// A Linux PM QoS request for a CPU wake-up latency of 0 µs, held while the descriptor is
/// open (`/dev/cpu_dma_latency`, Documentation/power/pm_qos_interface.rst): the cpuidle
/// governor then keeps idle CPUs in its polling state instead of halting them, so that a
/// wake-up costs no interrupt to a halted (virtual) CPU.
///
/// For measurement only: figure 1's warm row measured once more with it shows how much of
/// the row is the machine's idle wake-ups rather than the daemon's work (docs/benchmarks.md,
/// "Warm reloads and halted CPUs"). The daemon never asks for it: a host of widgets keeps
/// CPUs idle, and every idle CPU would spin while it was held.
final class CPULatencyHold {
    private let descriptor: Int32

    /// The request, or why it cannot be made (not root, no such device).
    static func make() -> Result<CPULatencyHold, BenchError> {
        let descriptor = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(BenchError("/dev/cpu_dma_latency: \(String(cString: strerror(errno)))"))
        }
        var microseconds: Int32 = 0
        guard write(descriptor, &microseconds, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return .failure(BenchError("/dev/cpu_dma_latency: write: \(reason)"))
        }
        return .success(CPULatencyHold(descriptor: descriptor))
    }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Closing the descriptor withdraws the request.
    deinit { close(descriptor) }
}
