import WidgetHostReloadArguments

#if canImport(Glibc)
import Glibc
#endif

// `widgethost`: the front of the CLI. `widgethost reload --kind K` is what scripts and key
// bindings run (i3blocks' peer is `pkill -RTMIN+1`), so its start is a figure of issue 16.
// The full CLI (`widgethost-cli`: swift-argument-parser, Foundation, every command) starts
// in about 21 M instructions, 14 M of them the dynamic loader binding Foundation, ICU and
// libstdc++. This program is a static executable with nothing of Foundation (0.7 M
// instructions for a reload): it sends the reload itself (read by `ReloadArguments`, which the
// full CLI's fast path reads it with too) and prints a plain answer; it hands everything else
// to the full CLI (`Handover`), before connecting, or, once the request is sent, with the
// connection and its reply unread, so every error is the full CLI's own.

let arguments = CommandLine.arguments
let environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }

// `--json`'s pretty-printed answer is the full CLI's to write.
guard let request = ReloadArguments.parse(Array(arguments.dropFirst()), environment: environment), !request.json,
    let line = request.requestLine
else { exit(Handover.exec(arguments: arguments)) }

let timeoutMilliseconds = 30_000
guard let socket = FrontSocket(connectingTo: request.socketPath(environment: environment)) else {
    // The full CLI connects again and says why it cannot.
    exit(Handover.exec(arguments: arguments))
}
guard socket.write(line) else {
    // Nothing usable was sent: the full CLI starts over on a new connection.
    socket.close()
    exit(Handover.exec(arguments: arguments))
}
let started = socket.now()
if let reply = socket.peekLine(timeoutMilliseconds: timeoutMilliseconds),
    let text = ReloadReplyText.text(replyLine: reply[...], request: request)
{
    socket.writeOut(text)
    exit(0)
}
let left = max(0, timeoutMilliseconds - (socket.now() - started))
exit(Handover.exec(arguments: arguments, resume: (socket.descriptor, left)))
