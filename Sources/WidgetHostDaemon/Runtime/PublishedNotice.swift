import NIOCore
import WidgetHostProtocol

/// A notice as `HostRuntime.publish` hands it to its subscribers: the value, and its `event`
/// line for the `subscribe` connections, encoded by the first connection that asks and then
/// written as the same bytes to every other (a notice was encoded once per connection).
/// Nothing is built for a notice no one subscribes to: `publish` makes none of these then.
final class PublishedNotice {
    let notice: HostNotice

    init(_ notice: HostNotice) {
        self.notice = notice
    }

    /// `{"jsonrpc":"2.0","method":"event","params":…}` and a newline; nil if the notice cannot
    /// be encoded (a NaN in an entry's content), in which case no connection is sent one.
    private(set) lazy var eventLine: ByteBuffer? = {
        guard let line = try? notice.eventLine() else { return nil }
        return ByteBuffer(bytes: line)
    }()
}
