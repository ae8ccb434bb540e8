import CSystemd
import Foundation

/// A problem with the descriptors systemd passed (`LISTEN_FDS`), in words an operator can act on.
public enum SocketActivationError: Error, CustomStringConvertible, Equatable {
    case unreadable(Int32)
    case notAListeningStreamSocket(descriptor: CInt, name: String)

    public var description: String {
        switch self {
        case .unreadable(let code):
            "cannot read the sockets systemd passed (LISTEN_FDS): \(String(cString: strerror(code)))"
        case .notAListeningStreamSocket(let fd, let name):
            "the socket systemd passed as descriptor \(fd) (FileDescriptorName=\(name)) is not a listening "
                + "Unix stream socket; use ListenStream=/path in widgethostd.socket"
        }
    }
}

/// Socket activation (sd_listen_fds(3)): the listening control socket systemd opened for us.
public enum SocketActivation {
    /// The descriptor to serve the control channel on: the one named `name`
    /// (`FileDescriptorName=control` in widgethostd.socket), or else the first passed. Nil
    /// when the process was not socket-activated — the daemon then binds `socket.path` itself.
    ///
    /// Call it first thing in `main`, before any thread or child process starts: it reads and
    /// then removes `LISTEN_FDS`, `LISTEN_PID` and `LISTEN_FDNAMES` from the environment
    /// (so no extension inherits them) and marks the descriptors close-on-exec.
    public static func listeningDescriptor(named name: String = "control") throws -> CInt? {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        guard count >= 0 else { throw SocketActivationError.unreadable(-count) }
        guard count > 0 else { return nil }
        var passed: [String] = []
        if let names {
            for index in 0..<Int(count) {
                passed.append(names[index].map { String(cString: $0) } ?? "")
                free(names[index])
            }
            free(names)
        }
        let chosen = choose(named: name, among: passed)
        let descriptor = SD_LISTEN_FDS_START + CInt(chosen)
        guard sd_is_socket_unix(descriptor, CInt(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            let passedName = passed.indices.contains(chosen) ? passed[chosen] : "unknown"
            throw SocketActivationError.notAListeningStreamSocket(descriptor: descriptor, name: passedName)
        }
        return descriptor
    }

    /// The index of the descriptor named `name`, or 0 (the first) when none is.
    static func choose(named name: String, among names: [String]) -> Int {
        names.firstIndex(of: name) ?? 0
    }
}
