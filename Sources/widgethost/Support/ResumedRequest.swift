import Foundation

/// A reload the `widgethost` front (Sources/widgethost-front) sent itself and handed over
/// with its reply unread, because the reply was not one the front prints: an error, a time
/// to write in local time, a notification first, nothing within the timeout. The front sets
/// `WIDGETHOST_RESUME=FD:MS` (the connected socket, the milliseconds left of the timeout) and
/// execs this program with the same arguments; `take()` reads and removes the variable, so
/// that nothing this process starts inherits it.
struct ResumedRequest: Equatable {
    static let variable = "WIDGETHOST_RESUME"

    var descriptor: Int32
    var timeLeft: Duration

    /// The request the front handed over, if any; throws on a value the front never writes.
    static func take() throws -> ResumedRequest? {
        guard let raw = getenv(variable) else { return nil }
        let value = String(cString: raw)
        unsetenv(variable)
        guard let resumed = parse(value) else { throw Malformed(value: value) }
        return resumed
    }

    static func parse(_ value: String) -> ResumedRequest? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let descriptor = Int32(parts[0]), descriptor > 2, let milliseconds = Int64(parts[1]),
            milliseconds >= 0, fcntl(descriptor, F_GETFD) >= 0
        else { return nil }
        return ResumedRequest(descriptor: descriptor, timeLeft: .milliseconds(milliseconds))
    }

    struct Malformed: Error, CustomStringConvertible {
        var value: String
        var description: String {
            "\(ResumedRequest.variable)=\(value) is not a connection the widgethost front handed over (FD:MS); unset it"
        }
    }
}
