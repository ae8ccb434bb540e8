import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real HTTP client for the tests (URLSession over libcurl): no redirects followed, no
/// cookies stored, so each test says exactly what it sends.
final class HTTPProbe: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    private let lock = NSLock()
    private var received = Data()
    private var marker: (String, DispatchSemaphore)?
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 10
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()
    private var completion: ((Int, [String: String], Data) -> Void)?
    private var response: HTTPURLResponse?

    func request(
        _ url: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil
    ) throws -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var reply: Reply?
        nonisolated(unsafe) var failure: (any Error)?
        let task = session.dataTask(with: request) { data, response, error in
            if let error { failure = error }
            if let response = response as? HTTPURLResponse {
                var fields: [String: String] = [:]
                for (key, value) in response.allHeaderFields {
                    fields[String(describing: key).lowercased()] = String(describing: value)
                }
                reply = Reply(status: response.statusCode, headers: fields, body: String(decoding: data ?? Data(), as: UTF8.self))
            }
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + 15) == .success else { throw ProbeError.timedOut(url) }
        if let reply { return reply }
        throw failure ?? ProbeError.noResponse(url)
    }

    /// Opens a streaming GET (server-sent events); `waitFor` then blocks until the text arrives.
    func stream(_ url: String, headers: [String: String]) -> URLSessionDataTask {
        var request = URLRequest(url: URL(string: url)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.timeoutInterval = 60
        let task = session.dataTask(with: request)
        task.resume()
        return task
    }

    /// Everything the stream received so far, once `text` is among it; nil after `timeout`.
    func waitFor(_ text: String, timeout: TimeInterval) -> String? {
        let signal = DispatchSemaphore(value: 0)
        lock.lock()
        if String(decoding: received, as: UTF8.self).contains(text) {
            lock.unlock()
            return String(decoding: received, as: UTF8.self)
        }
        marker = (text, signal)
        lock.unlock()
        guard signal.wait(timeout: .now() + timeout) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: received, as: UTF8.self)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        received.append(data)
        if let (text, signal) = marker, String(decoding: received, as: UTF8.self).contains(text) {
            marker = nil
            signal.signal()
        }
        lock.unlock()
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    enum ProbeError: Error {
        case timedOut(String)
        case noResponse(String)
    }
}
