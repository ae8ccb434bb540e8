import Foundation
import NIOCore
import WidgetHostCore
import WidgetHostProtocol
#if canImport(Glibc)
import Glibc
#endif

/// One client connection: lines in, JSON-RPC replies out (a batch's as one array); after
/// `subscribe`, a stream of `event` notifications. Bad input gets the standard JSON-RPC error
/// and the connection stays.
final class ControlConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let server: ControlServer
    private var framer: LineFramer
    private var peer: Peer?
    /// `peer` as `ControlAuthority` sees it, resolved at the first request once `peer` is known
    /// (`ControlDispatcher.controlPeer`: one `getpgid` per connection, not per request). An
    /// extension's process cannot leave its group, so a peer that was one stays one; a process
    /// that was not one cannot become one, since an extension started later has a group of its
    /// own that no existing process is in.
    private var resolvedPeer: ControlPeer?
    private var subscription: Int?
    /// The connection's dispatcher, made once: made per request, its settings' copy, the
    /// authority's and their release were ~800 instructions a `status` (callgrind).
    private let dispatcher: ControlDispatcher
    /// `control.idle_timeout`, the time of the last read, and the check that closes the
    /// connection when nothing was read for that long (`scheduleIdleCheck`).
    private let idleTimeout: TimeAmount
    private var lastRead = NIODeadline.uptimeNanoseconds(0)
    private var idleCheck: Scheduled<Void>?
    /// Inside a read's batch: replies are written but not flushed until its commit.
    private var holding = false
    private var held = false

    init(server: ControlServer) {
        self.server = server
        self.framer = LineFramer(maxLineBytes: server.settings.maxLineBytes)
        self.dispatcher = ControlDispatcher(runtime: server.runtime, settings: server.settings, rescan: server.rescan)
        self.idleTimeout = .nanoseconds(Int64(server.settings.idleTimeout * 1_000_000_000))
    }

    func channelActive(context: ChannelHandlerContext) {
        // On the channel's own loop the option is read synchronously, before any request.
        Self.peerCredentials(of: context.channel)?.assumeIsolated().whenSuccess { [weak self] peer in self?.peer = peer }
        lastRead = .now()
        scheduleIdleCheck(at: lastRead + idleTimeout, context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let subscription { server.runtime.unsubscribe(subscription) }
        subscription = nil
        idleCheck?.cancel()
        idleCheck = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
    }

    /// `control.idle_timeout`: a connection nothing was read from for that long is closed, a
    /// subscriber never by our choice. What NIO's `IdleStateHandler(readTimeout:)` in front of
    /// this handler did, and when: one timer, due `idle_timeout` after the last read; when it
    /// fires early (a read came since), it is set again for `idle_timeout` after that read.
    /// Here, because that handler was one more stop for every read, read completion, write,
    /// flush and read request of every request (~1,000 instructions a `status`, callgrind).
    private func scheduleIdleCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.idleCheckFired(context: context)
        }
    }

    private func idleCheckFired(context: ChannelHandlerContext) {
        idleCheck = nil
        guard context.channel.isActive, subscription == nil else { return }
        let due = lastRead + idleTimeout
        if NIODeadline.now() >= due {
            context.close(promise: nil)
        } else {
            scheduleIdleCheck(at: due, context: context)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        // The usual read: one whole line, a plain `status` request. Answered without the
        // framer's arrays and outside a batch, which it does not need: `status` runs no step
        // (the framer, its arrays and the batch were ~1,100 instructions a `status`, callgrind).
        if framer.isAtLineStart, let id = buffer.withUnsafeReadableBytes({ Self.plainStatusLine($0, limit: framer.maxLineBytes) }) {
            answer(perform(.status, params: nil, id: .number(id), context: context), context: context)
            lastRead = .now()
            return
        }
        let frames = buffer.withUnsafeReadableBytes { framer.append($0) }
        // The lines of one read are one batch: their steps are committed together, before any
        // reply, notice or request they caused leaves; the replies are flushed after that.
        holding = true
        server.runtime.batch {
            for frame in frames {
                switch frame {
                case .line(let bytes): handleLine(bytes, context: context)
                case .oversized:
                    write(.errorResponse(id: nil, error: .lineTooLong(limit: server.settings.maxLineBytes)), context: context)
                }
            }
        }
        holding = false
        if held {
            held = false
            context.flush()
        }
        lastRead = .now()
    }

    /// A client that sends requests without reading the replies stops being read until it
    /// catches up, so its replies never pile up without bound.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.channel.setOption(.autoRead, value: context.channel.isWritable).whenComplete { _ in }
        if context.channel.isWritable { context.read() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// The id, when `bytes` are exactly one line (one newline, at the end; a CR before it is
    /// the line's end too) that is a plain `status` request within `limit` bytes: what the
    /// framer, at the start of a line, would give as that one line.
    static func plainStatusLine(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Int? {
        guard let base = bytes.baseAddress, bytes.count > 1, bytes[bytes.count - 1] == UInt8(ascii: "\n"),
            memchr(base, Int32(UInt8(ascii: "\n")), bytes.count - 1) == nil
        else { return nil }
        var end = bytes.count - 1
        if bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end <= limit else { return nil }
        return PlainStatusRequest.id(of: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: end))
    }

    /// What running one message gives back: nothing (a notification), a response now, or
    /// one later (a rescan runs extensions first). A later response never fails.
    private enum Reply {
        case none
        case now(JSONRPCMessage)
        /// A response whose result is already JSON (`status`'s, from its cache).
        case nowEncoded(id: JSONRPCID, result: [UInt8])
        case later(EventLoopFuture<JSONRPCMessage>)
    }

    private func handleLine(_ bytes: [UInt8], context: ChannelHandlerContext) {
        // Byte for byte a plain `status` request: the dispatcher's `status` case without
        // reading the line as JSON (`PlainStatusRequest`).
        if let id = PlainStatusRequest.id(of: bytes) {
            answer(perform(.status, params: nil, id: .number(id), context: context), context: context)
            return
        }
        // A plain `reloadTimelines` for one kind, read as bytes (`PlainReloadRequest`): on a cold
        // reload's path before the spawn.
        if let plain = PlainReloadRequest.request(of: bytes) {
            let params = JSONValue.object(["kind": .string(plain.kind)])
            answer(perform(.reloadTimelines, params: params, id: .number(plain.id), context: context), context: context)
            return
        }
        switch JSONRPCLine.parse(bytes, maxBatch: server.settings.maxBatch) {
        case .single(let parsed):
            answer(run(parsed, context: context), context: context)
        case .batch(let members):
            runBatch(members, context: context)
        }
    }

    /// A single line's reply, written now or when it comes.
    private func answer(_ reply: Reply, context: ChannelHandlerContext) {
        switch reply {
        case .none: break
        case .now(let response): write(response, context: context)
        case .nowEncoded(let id, let result):
            // Straight into the buffer the channel writes: building an array first and copying
            // it into one cost ~2,000 instructions a `status` (callgrind).
            var buffer = context.channel.allocator.buffer(capacity: result.count + 48)
            guard (try? Self.writeResponseLine(id: id, result: result, into: &buffer)) != nil else { return }
            send(buffer, context: context)
        case .later(let future):
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            future.hop(to: context.eventLoop).whenSuccess { response in
                let (handler, context) = bound.value
                handler.write(response, context: context)
            }
        }
    }

    /// Runs a batch's members in order, as separate lines would be run, and answers them in
    /// one array once the last response is in; a batch of notifications only gets nothing.
    private func runBatch(_ members: [JSONRPCMessage.Parsed], context: ChannelHandlerContext) {
        var answered: [Reply] = []
        for member in members {
            let reply = run(member, context: context)
            if case .none = reply { continue }
            answered.append(reply)
        }
        var responses = JSONRPCBatchResponses(expecting: answered.count)
        var later: [EventLoopFuture<(Int, JSONRPCMessage)>] = []
        for (index, reply) in answered.enumerated() {
            switch reply {
            case .none: break
            case .now(let response): responses.answer(index, with: response)
            case .nowEncoded(let id, let result):
                // A batch is rare: its members are answered as JSON values, the long way.
                let value = (try? WireCoding.decode(JSONValue.self, from: Data(result))) ?? .null
                responses.answer(index, with: .response(id: id, result: value))
            case .later(let future): later.append(future.hop(to: context.eventLoop).map { (index, $0) })
            }
        }
        if later.isEmpty {
            writeBatch(responses, context: context)
            return
        }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        EventLoopFuture.whenAllSucceed(later, on: context.eventLoop).whenSuccess { [responses] answers in
            var responses = responses
            for (index, response) in answers { responses.answer(index, with: response) }
            let (handler, context) = bound.value
            handler.writeBatch(responses, context: context)
        }
    }

    /// One message, a line's or a batch member's: an invalid one gets its error, a request
    /// its reply, a notification is run and gets none (JSON-RPC 2.0: the server must not reply).
    private func run(_ parsed: JSONRPCMessage.Parsed, context: ChannelHandlerContext) -> Reply {
        switch parsed {
        case .invalid(let id, let error):
            return .now(.errorResponse(id: id, error: error))
        case .message(.request(let id, let method, let params)):
            return perform(method, params: params, id: id, context: context)
        case .message(.notification(let method, let params)):
            _ = perform(method, params: params, id: nil, context: context)
            return .none
        case .message(.response), .message(.errorResponse):
            return .now(.errorResponse(id: nil, error: .invalidRequest("clients send requests; responses are not expected")))
        }
    }

    /// Dispatches a method; `id` nil for a notification, whose outcome is dropped.
    private func perform(_ method: String, params: JSONValue?, id: JSONRPCID?, context: ChannelHandlerContext) -> Reply {
        perform(method, params: params, id: id, context: context) { dispatcher, peer in
            dispatcher.dispatch(method: method, params: params, as: peer)
        }
    }

    /// The same for a method already known (a plain `status` or `reloadTimelines` line's).
    private func perform(_ method: ControlMethod, params: JSONValue?, id: JSONRPCID?, context: ChannelHandlerContext) -> Reply {
        perform(method.rawValue, params: params, id: id, context: context) { dispatcher, peer in
            dispatcher.dispatch(method, params: params, as: peer)
        }
    }

    private func perform(
        _ method: String, params: JSONValue?, id: JSONRPCID?, context: ChannelHandlerContext,
        dispatch: (ControlDispatcher, ControlPeer?) -> ControlDispatcher.Outcome
    ) -> Reply {
        if resolvedPeer == nil, let peer { resolvedPeer = dispatcher.controlPeer(peer) }
        // The control channel's latency, for the dashboard's /metrics (nil without one).
        let outcome: ControlDispatcher.Outcome
        let runtime = server.runtime
        if runtime.controlRequestObserved != nil {
            let started = NIODeadline.now()
            let observe: @Sendable () -> Void = {
                runtime.controlRequestObserved?(method, Double((NIODeadline.now() - started).nanoseconds) / 1e9)
            }
            outcome = dispatch(dispatcher, resolvedPeer)
            if case .later(let future) = outcome {
                future.whenComplete { _ in observe() }
            } else {
                observe()
            }
        } else {
            outcome = dispatch(dispatcher, resolvedPeer)
        }
        if case .subscribed = outcome { subscribe(context: context) }
        guard let id else { return .none }
        switch outcome {
        case .result(let result), .subscribed(let result): return .now(.response(id: id, result: result))
        case .encodedResult(let result): return .nowEncoded(id: id, result: result)
        case .error(let error): return .now(.errorResponse(id: id, error: error))
        case .later(let future):
            return .later(
                future.map { JSONRPCMessage.response(id: id, result: $0) }.recover { error in
                    // A refusal the core gave later (a tap's, an option query's) keeps its code.
                    .errorResponse(
                        id: id,
                        error: error as? JSONRPCError
                            ?? JSONRPCError(code: JSONRPCError.internalErrorCode, message: "\(error)"))
                })
        }
    }

    private func writeBatch(_ responses: JSONRPCBatchResponses, context: ChannelHandlerContext) {
        guard let data = try? responses.encodedLine() else { return }
        send(data, context: context)
    }

    /// A reply: flushed now, or held until the batch that caused it is committed.
    private func send(_ bytes: some Sequence<UInt8>, context: ChannelHandlerContext) {
        send(ByteBuffer(bytes: bytes), context: context)
    }

    private func send(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        if holding {
            held = true
            context.write(wrapOutboundOut(buffer), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
    }

    private func subscribe(context: ChannelHandlerContext) {
        guard subscription == nil else { return }
        let channel = context.channel
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        // A step's notices go out in one write: each is written here, flushed once the step
        // has executed all its effects (`HostRuntime.flush`).
        subscription = server.runtime.subscribe(flush: { loopBound.value.flush() }) { [weak self] published in
            guard let self else { return }
            // A subscriber that stops reading is dropped rather than buffered without bound.
            guard channel.isWritable else {
                channel.close(promise: nil)
                return
            }
            // The same bytes for every subscriber (a ByteBuffer is shared, not copied, by each write).
            guard let line = published.eventLine else { return }
            let context = loopBound.value
            context.write(self.wrapOutboundOut(line), promise: nil)
        }
    }

    /// `{"id":…,"jsonrpc":"2.0","result":…}` and a newline: the bytes of
    /// `JSONRPCMessage.response(id:result:).encodedLine()` around a result already encoded.
    static func responseLine(id: JSONRPCID, result: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBufferAllocator().buffer(capacity: result.count + 48)
        try writeResponseLine(id: id, result: result, into: &buffer)
        return Array(buffer.readableBytesView)
    }

    /// The same bytes, written at the end of `buffer`.
    /// In one reservation of the buffer: each `writeBytes`, `writeStaticString` or `String(number)`
    /// cost ~250–300 instructions of fixed overhead (callgrind), more than copying the result.
    static func writeResponseLine(id: JSONRPCID, result: [UInt8], into buffer: inout ByteBuffer) throws {
        let head: StaticString = #"{"id":"#
        let middle: StaticString = #","jsonrpc":"2.0","result":"#
        let tail: StaticString = "}\n"
        var stringID: [UInt8] = []
        if case .string = id { stringID = Array(try WireCoding.encode(id)) }
        let length = head.utf8CodeUnitCount + 20 + stringID.count + middle.utf8CodeUnitCount + result.count + tail.utf8CodeUnitCount
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { out in
            // No nested function capturing `at`: that cost an exclusivity check per piece.
            var at = put(head, into: out, at: 0)
            switch id {
            case .number(let number):
                // `String(number)`'s bytes.
                if number < 0 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                var magnitude = number.magnitude
                var digits = 1
                while magnitude >= 10 {
                    magnitude /= 10
                    digits += 1
                }
                magnitude = number.magnitude
                for index in stride(from: at + digits - 1, through: at, by: -1) {
                    out[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                }
                at += digits
            case .string:
                let position = at
                at = stringID.withUnsafeBytes { put($0, into: out, at: position) }
            }
            at = put(middle, into: out, at: at)
            let position = at
            at = result.withUnsafeBytes { put($0, into: out, at: position) }
            return put(tail, into: out, at: at)
        }
    }

    private static func put(_ text: StaticString, into out: UnsafeMutableRawBufferPointer, at: Int) -> Int {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), into: out, at: at)
    }

    private static func put(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer, at: Int) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return at }
        (out.baseAddress! + at).copyMemory(from: base, byteCount: bytes.count)
        return at + bytes.count
    }

    private func write(_ message: JSONRPCMessage, context: ChannelHandlerContext) {
        guard let data = try? message.encodedLine() else { return }
        send(data, context: context)
    }

    /// `SO_PEERCRED`. Glibc's `struct ucred` needs _GNU_SOURCE, so its layout is spelled here.
    private struct PeerCredentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// `SO_PEERGROUPS` fills a buffer it is given; NIO hands it one of fixed size, zeroed.
    private struct PeerGroups: Sendable {
        var gids: (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        /// The kernel writes the groups ascending, so the zeroes after the last one are the
        /// buffer's. A peer in more than 64 groups gets ERANGE: its supplementary groups are
        /// not counted (its primary group still is).
        var list: [UInt32] {
            withUnsafeBytes(of: gids) { raw in
                let all = Array(raw.bindMemory(to: UInt32.self))
                guard let last = all.lastIndex(where: { $0 != 0 }) else { return [] }
                return Array(all[...last])
            }
        }
    }

    static func peerCredentials(of channel: any Channel) -> EventLoopFuture<Peer>? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future.flatMap { credentials in
            let groups: EventLoopFuture<PeerGroups> = provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERGROUPS))
            return groups.map { $0.list }.recover { _ in [] }.map { list in
                Peer(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: list)
            }
        }
    }
}
