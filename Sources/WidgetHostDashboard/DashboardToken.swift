import Foundation
import HTTPTypes
#if canImport(Glibc)
import Glibc
#endif

/// The dashboard's per-start secret, as Jupyter's: whoever holds it has the authority of the
/// control socket's admin peers. It reaches a browser once, in the URL widgethostd writes to
/// `dashboard.url` (mode 0600) and `make run` prints; the page then carries it in an HttpOnly
/// cookie, and scripts and `curl` send it as `Authorization: Bearer TOKEN`.
public struct DashboardToken: Sendable, Hashable {
    public let value: String

    public init(value: String) {
        self.value = value
    }

    /// 32 random bytes from the system's generator, as 64 hex digits.
    public static func random() -> DashboardToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return DashboardToken(value: bytes.map { String(format: "%02x", $0) }.joined())
    }

    static let cookieName = "widgethost_token"

    /// How a request proved it holds the token, if it did.
    enum Proof: Equatable {
        case bearer
        case cookie
        case query
    }

    /// The header wins, then the cookie, then `?token=`. Compared in constant time.
    func proof(headers: HTTPFields, query: String?) -> Proof? {
        if let authorization = headers[.authorization], authorization.hasPrefix("Bearer "),
            matches(String(authorization.dropFirst(7)))
        {
            return .bearer
        }
        for cookie in headers[values: .cookie] {
            for pair in cookie.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == Self.cookieName, matches(String(parts[1])) { return .cookie }
            }
        }
        if let query {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == "token", matches(String(parts[1])) { return .query }
            }
        }
        return nil
    }

    func matches(_ candidate: String) -> Bool {
        let a = Array(candidate.utf8)
        let b = Array(value.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// `Set-Cookie` for a browser that came with `?token=`: the page's own origin only.
    var cookie: String {
        "\(Self.cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict"
    }
}

/// `dashboard.url` in the state directory: the URL with the token, mode 0600, written when
/// the dashboard listens and removed when it stops.
public enum DashboardURLFile {
    public static let name = "dashboard.url"

    /// Written beside and renamed into place, so that a reader (`make run`, a test, a script
    /// polling for the file) never sees it created but still empty.
    public static func write(url: String, directory: String) throws {
        let path = directory + "/" + name
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw DashboardError.urlFile(temporary, errno) }
        var closed = false
        defer { if !closed { close(descriptor); unlink(temporary) } }
        // The umask may have narrowed nothing, but make sure: the token is for the daemon's user only.
        guard fchmod(descriptor, 0o600) == 0 else { throw DashboardError.urlFile(temporary, errno) }
        let bytes = Array((url + "\n").utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw DashboardError.urlFile(temporary, errno) }
        closed = true
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw DashboardError.urlFile(path, code)
        }
    }

    public static func remove(directory: String) {
        unlink(directory + "/" + name)
    }
}

public enum DashboardError: Error, CustomStringConvertible, Sendable {
    case urlFile(String, Int32)
    case bind(String, String)

    public var description: String {
        switch self {
        case .urlFile(let path, let code):
            return "cannot write the dashboard URL to \(path): \(String(cString: strerror(code))); check that the state directory is writable"
        case .bind(let address, let reason):
            return "the dashboard cannot listen on \(address): \(reason); choose another port in dashboard.listen, or \"\" for no dashboard"
        }
    }
}
