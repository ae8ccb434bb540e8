#if canImport(Glibc)
import Glibc
#endif

// The floor for control throughput: the least a Unix-socket JSON-RPC server can do.
// `widgethost-bench-echo SOCKET [REPLY_FILE]` accepts connections, one thread each, and
// answers every request line with the bytes of REPLY_FILE (the daemon's own `status` reply,
// so the payload is the same), or echoes the line when no file is given. No parsing, no
// event loop, no state: what is left is the kernel's socket cost and the framing.

EchoServer.run(arguments: CommandLine.arguments)
