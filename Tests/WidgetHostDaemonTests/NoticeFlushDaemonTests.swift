import Foundation
import NIOCore
import Synchronization
import Testing
import WidgetHostProtocol

@testable import WidgetHostDaemon

/// A step's notices go to a subscriber in one write (issue 16): each is handed over as it is
/// published and flushed once the step's effects are executed, after its write.
@Suite("A step's notices in one write", .tags(.process), .serialized)
struct NoticeFlushDaemonTests {
    final class Seen: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("The runtime flushes a subscriber once per step, after all the step's notices")
    func flushAfterTheStepsNotices() throws {
        let fixture = try DaemonFixture()
        let seen = Seen()
        let runtime = fixture.daemon.runtime
        _ = try runtime.eventLoop.submit {
            _ = runtime.subscribe(flush: { seen.add("flush") }) { published in seen.add(published.notice.type.rawValue) }
        }.wait()
        let client = try fixture.client()
        let added: AddWidgetResult = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"])
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, !(seen.all.contains("reloadFinished") && seen.all.last == "flush") { usleep(10_000) }
        let lines = seen.all
        #expect(added.widget.id.isEmpty == false)
        // reloadFinished and entryChanged come from one step (the reply): no flush between them.
        let finished = try #require(lines.firstIndex(of: "reloadFinished"), "\(lines)")
        let changed = try #require(lines[finished...].firstIndex(of: "entryChanged"), "\(lines)")
        #expect(!lines[finished..<changed].contains("flush"), "\(lines)")
        #expect(lines[changed...].dropFirst().first == "flush", "\(lines)")
        // Every notice is followed by a flush before the next step's; none is left unflushed.
        #expect(lines.last == "flush")
    }

    @Test("Two subscribers get every notice in the order they subscribed, and each is flushed")
    func twoSubscribersInOrder() throws {
        let fixture = try DaemonFixture()
        let seen = Seen()
        let runtime = fixture.daemon.runtime
        _ = try runtime.eventLoop.submit {
            for name in ["a", "b"] {
                _ = runtime.subscribe(flush: { seen.add("\(name):flush") }) { published in
                    seen.add("\(name):\(published.notice.type.rawValue)")
                }
            }
        }.wait()
        let client = try fixture.client()
        _ = try client.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"], as: AddWidgetResult.self)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, !(seen.all.contains("b:entryChanged") && seen.all.last == "b:flush") { usleep(10_000) }
        let lines = seen.all
        let a = lines.filter { $0.hasPrefix("a:") }.map { $0.dropFirst(2) }
        let b = lines.filter { $0.hasPrefix("b:") }.map { $0.dropFirst(2) }
        #expect(a == b, "\(lines)")
        #expect(a.contains("entryChanged") && a.last == "flush", "\(lines)")
        // Each notice reaches a first, then b.
        for (index, line) in lines.enumerated() where line.hasPrefix("a:") && line != "a:flush" {
            #expect(lines[index + 1] == "b:" + line.dropFirst(2), "\(lines)")
        }
    }

    @Test("A subscribe connection reads the reply step's reloadFinished and entryChanged in one read")
    func oneReadForTheReplyStep() throws {
        let fixture = try DaemonFixture()
        let subscriber = try fixture.client()
        _ = try subscriber.call("subscribe")
        let control = try fixture.client()
        _ = try control.result("addWidget", ["kind": "WellBehavedWidget", "family": "systemSmall"], as: AddWidgetResult.self)
        // The chunk that carries the timeline's entryChanged carries reloadFinished too: one write.
        var chunks: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let count = read(subscriber.fd, &buffer, buffer.count)
            guard count > 0 else { break }
            chunks.append(String(decoding: buffer[0..<count], as: UTF8.self))
            if chunks.last!.contains(#""entryChanged""#) && chunks.last!.contains(#""timeline""#) { break }
        }
        let last = try #require(chunks.last, "nothing read")
        #expect(last.contains(#""entryChanged""#))
        #expect(last.contains(#""reloadFinished""#), "\(chunks)")
    }
}
