import Foundation
import Logging
import NIOCore
import NIOPosix
import WidgetHostConfiguration
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

enum ControlSocketError: Error, CustomStringConvertible {
    case alreadyServed(String)
    case cannotBind(String, String)

    var description: String {
        switch self {
        case .alreadyServed(let path):
            "another widgethostd is already serving \(path); stop it first or choose another socket.path"
        case .cannotBind(let path, let reason):
            "cannot listen on \(path): \(reason)"
        }
    }
}

/// The control socket: NDJSON JSON-RPC for many clients at once, on the runtime's loop.
final class ControlServer: @unchecked Sendable {
    let runtime: HostRuntime
    let settings: ControlSettings
    let logger: Logger
    let rescan: () -> EventLoopFuture<ExtensionsResult>
    private var channel: (any Channel)?
    /// True when this process created the socket file (and so removes it on exit).
    private var ownsSocketFile = false

    init(runtime: HostRuntime, settings: ControlSettings, logger: Logger, rescan: @escaping () -> EventLoopFuture<ExtensionsResult>) {
        self.runtime = runtime
        self.settings = settings
        self.logger = logger
        self.rescan = rescan
    }

    /// Binds `settings.socketPath`: a live socket there is another daemon (refuse); a stale
    /// one (ECONNREFUSED) is removed; the mode is 0660 through the umask.
    func bind() throws -> EventLoopFuture<Void> {
        let path = settings.socketPath
        if FileManager.default.fileExists(atPath: path) {
            switch Self.probe(path) {
            case 0: throw ControlSocketError.alreadyServed(path)
            case ECONNREFUSED: unlink(path)
            case let code: throw ControlSocketError.cannotBind(path, String(cString: strerror(code)))
            }
        }
        let previous = umask(0o117)
        defer { umask(previous) }
        let future = bootstrap().bind(unixDomainSocketPath: path)
        return future.map { [self] channel in
            self.channel = channel
            self.ownsSocketFile = true
        }
    }

    /// Serves an already-listening descriptor (socket activation).
    func adopt(descriptor: CInt) -> EventLoopFuture<Void> {
        bootstrap().withBoundSocket(descriptor).map { [self] channel in self.channel = channel }
    }

    func close() {
        channel?.close(promise: nil)
        if ownsSocketFile { unlink(settings.socketPath) }
    }

    private func bootstrap() -> ServerBootstrap {
        ServerBootstrap(group: runtime.eventLoop)
            .serverChannelOption(.backlog, value: 256)
            // control.max_connections: one accept per read, none while at the limit.
            .serverChannelOption(.maxMessagesPerRead, value: 1)
            .serverChannelInitializer { [settings] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConnectionLimit(limit: settings.maxConnections))
                }
            }
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    // One handler: it also closes idle connections (`control.idle_timeout`).
                    try channel.pipeline.syncOperations.addHandler(ControlConnectionHandler(server: self))
                }
            }
    }

    /// 0 when something accepts connections at `path`, otherwise the connect errno.
    static func probe(_ path: String) -> CInt {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { Glibc.close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(107))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }
}
