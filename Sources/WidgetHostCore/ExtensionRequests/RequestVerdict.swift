import Foundation
import WidgetHostProtocol

/// How the host judges one request to an extension: when it times out, when its footprint
/// is a memory kill, and what a process that ended or spoke out of turn comes to. The core
/// judges its own requests with these; a shell that runs a request by itself (the doctor)
/// asks the same questions instead of deciding on its own.
extension ExtensionLimits {
    /// How long the host waits for the answer to `method`: `placeholder_timeout` for the
    /// placeholder, `intent_timeout` for an intent's `perform()`, a parameter's options and a
    /// control's value, `timeline_timeout` for everything else (`initialize` included).
    public func timeout(for method: ExtensionMethod) -> TimeInterval {
        switch method {
        case .placeholder: placeholderTimeout
        case .intentPerform, .intentOptions, .controlValue: intentTimeout
        case .initialize, .snapshot, .timeline: timelineTimeout
        }
    }

    /// The verdict on a request still running at `now`, sent at `sentAt`, whose latest
    /// footprint sample is `footprintBytes`: the failure the process is killed for, or nil
    /// while it is within the limits. The footprint is judged first: a process past the
    /// memory limit is killed for that even at its deadline.
    public func verdict(
        on method: ExtensionMethod, sentAt: Date, at now: Date, footprintBytes: Int?
    ) -> ExtensionFailure? {
        if let failure = verdict(onFootprint: footprintBytes) { return failure }
        if now >= sentAt + timeout(for: method) { return .timedOut(elapsed: now.timeIntervalSince(sentAt)) }
        return nil
    }

    /// The same verdict for a shell that counts time from the start of the request.
    public func verdict(on method: ExtensionMethod, elapsed: TimeInterval, footprintBytes: Int?) -> ExtensionFailure? {
        let sent = Date(timeIntervalSinceReferenceDate: 0)
        return verdict(on: method, sentAt: sent, at: sent + elapsed, footprintBytes: footprintBytes)
    }

    /// The verdict on a footprint sample, or on the footprint measured with a reply: a reply
    /// that beats the deadline is on time, but not one from a process past the memory limit.
    public func verdict(onFootprint footprintBytes: Int?) -> ExtensionFailure? {
        guard let footprintBytes, footprintBytes > memory else { return nil }
        return .memoryLimitExceeded(footprintBytes: footprintBytes)
    }

    /// The verdict on a process that ended before answering `method`: a kernel memory kill
    /// (its cgroup's `oom_kill`, with the peak footprint) is `memoryLimitExceeded`; any other
    /// end — an exit, a signal — is `crashed`.
    public func verdict(
        onExit status: String, before method: ExtensionMethod, memoryKillFootprint: Int?
    ) -> ExtensionFailure {
        if let memoryKillFootprint { return .memoryLimitExceeded(footprintBytes: memoryKillFootprint) }
        return .crashed("\(status) before answering \(method.rawValue)")
    }
}

/// A failure is what a shell's run of a request throws or returns (`Result`).
extension ExtensionFailure: Error {}
