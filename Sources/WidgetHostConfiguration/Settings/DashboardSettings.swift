import Foundation

/// `[dashboard]`: the daemon's HTTP dashboard and `/metrics`, on loopback only.
public struct DashboardSettings: Sendable, Hashable {
    /// `dashboard.listen`: where to listen; nil (the default) serves no dashboard.
    public var listen: ListenAddress?

    public init(listen: ListenAddress? = nil) {
        self.listen = listen
    }

    /// A loopback host and a port (0: any free port; the dashboard URL file says which).
    public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

        /// `"127.0.0.1:8765"`, `"[::1]:8765"`, `"localhost:8765"`; nil with the reason otherwise.
        public static func parse(_ text: String) -> Result<ListenAddress, Refusal> {
            let host: Substring
            let portText: Substring
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                    return .failure(.form)
                }
                host = text[text.index(after: text.startIndex)..<close]
                portText = text[text.index(close, offsetBy: 2)...]
            } else {
                guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return .failure(.form) }
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            }
            guard let port = Int(portText), (0...65535).contains(port) else { return .failure(.port(String(portText))) }
            guard isLoopback(String(host)) else { return .failure(.notLoopback(String(host))) }
            return .success(ListenAddress(host: String(host), port: port))
        }

        /// 127.0.0.0/8, ::1 and localhost: the dashboard is never served beyond this machine.
        static func isLoopback(_ host: String) -> Bool {
            if host == "localhost" || host == "::1" { return true }
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
            return parts[0] == "127"
        }

        public enum Refusal: Error, Sendable, Hashable {
            case form
            case port(String)
            case notLoopback(String)
        }
    }
}
