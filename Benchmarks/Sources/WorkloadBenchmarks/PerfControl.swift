import BenchmarkSupport
import Foundation

/// Lets `perf record` sample one phase of a Strata child alone: with `WORKLOAD_PERF_PHASE=NAME`
/// and `WORKLOAD_PERF_CONTROL=FIFO` (perf's `--control=fifo:FIFO,ACK -D -1`, started disabled),
/// the child writes `enable` to the fifo before that phase and `disable` after it, and waits for
/// perf's answer on `WORKLOAD_PERF_ACK` when given.
enum PerfControl {
    static let environment = ProcessInfo.processInfo.environment
    static let phase = environment["WORKLOAD_PERF_PHASE"].flatMap(Phase.init(rawValue:))
    static let control = environment["WORKLOAD_PERF_CONTROL"]
    static let ack = environment["WORKLOAD_PERF_ACK"]

    /// Times `work` as `timed` does, perf sampling it when `phase` is the one asked for.
    static func timed<T>(_ phase: Phase, _ work: () throws -> T) rethrows -> (T, Double) {
        guard phase == self.phase, let control else { return try BenchmarkSupport.timed(work) }
        send("enable", to: control)
        defer { send("disable", to: control) }
        return try BenchmarkSupport.timed(work)
    }

    private static func send(_ command: String, to control: String) {
        guard let handle = FileHandle(forWritingAtPath: control) else { return }
        handle.write(Data("\(command)\n".utf8))
        try? handle.close()
        if let ack, let answer = FileHandle(forReadingAtPath: ack) {
            _ = answer.availableData
            try? answer.close()
        }
    }
}
