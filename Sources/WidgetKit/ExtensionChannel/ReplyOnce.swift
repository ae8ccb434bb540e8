import Synchronization
import WidgetHostProtocol

/// Sends a request's reply once. A provider that calls its completion handler twice
/// would otherwise answer one request with two lines, and the host would take the
/// second for the reply to a request it has not sent yet.
final class ReplyOnce<Reply: Sendable>: Sendable {
    private let method: String
    private let pending: Mutex<(@Sendable (Reply) -> Void)?>

    init(method: String, _ reply: @escaping @Sendable (Reply) -> Void) {
        self.method = method
        pending = Mutex(reply)
    }

    func send(_ message: Reply) {
        let reply = pending.withLock { reply in
            defer { reply = nil }
            return reply
        }
        guard let reply else {
            StandardError.write(
                "widgetkit: the provider answered \(method) more than once; only the first answer was sent")
            return
        }
        reply(message)
    }
}
