import Foundation
import Synchronization
import Testing
@testable import WidgetHostRunner

/// `ProcessFootprint` (descriptors kept open, `pread`, bytes parsed in place) and
/// `FootprintReader` measure what the reader before them measured: RssAnon + VmSwap of the
/// process and every descendant, found through each thread's `children`. The reference below
/// is that reader, kept as it was (text, `FileManager`, a file opened per read).
///
/// Nested in `FootprintTests`, whose `.serialized` then covers it too: its leak test walks
/// this test process's own tree, which the processes started here belong to.
extension FootprintTests {
    @Suite("Footprint readers against the text reader they replaced")
    struct ProcessFootprintTests {
        /// The reader before issue 16's cut, verbatim but for names.
        enum TextReader {
            static func footprint(ofProcessGroupLeader pid: Int32) -> Int? {
                guard let own = footprint(ofProcess: pid) else { return nil }
                return descendants(of: pid).reduce(own) { $0 + (footprint(ofProcess: $1) ?? 0) }
            }

            static func footprint(ofProcess pid: Int32) -> Int? {
                guard let text = KernelFile.read("/proc/\(pid)/status") else { return nil }
                var anon: Int?
                var swap = 0
                for line in text.split(separator: "\n") {
                    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    guard words.count >= 2 else { continue }
                    if words[0] == "RssAnon:" { anon = Int(words[1]) }
                    if words[0] == "VmSwap:" { swap = Int(words[1]) ?? 0 }
                }
                return anon.map { ($0 + swap) * 1024 }
            }

            static func descendants(of pid: Int32) -> [Int32] {
                var found: [Int32] = []
                var queue = [pid]
                while let parent = queue.popLast(), found.count < 4096 {
                    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
                    for task in tasks {
                        guard let text = KernelFile.read("/proc/\(parent)/task/\(task)/children") else { continue }
                        let children = text.split(separator: " ").compactMap {
                            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                        }
                        found += children
                        queue += children
                    }
                }
                return found
            }
        }

        /// Starts `arguments` and waits until the process has `descendants` descendants (the
        /// text reader's count).
        private static func start(_ arguments: [String], descendants: Int) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let deadline = Date() + 10
            while TextReader.descendants(of: process.processIdentifier).count < descendants, Date() < deadline {
                usleep(10_000)
            }
            #expect(TextReader.descendants(of: process.processIdentifier).count == descendants)
            return process
        }

        /// SIGKILL for the tree: a child started from a test's thread may inherit a mask that
        /// blocks SIGTERM.
        private static func stop(_ process: Process) {
            let pid = process.processIdentifier
            for child in TextReader.descendants(of: pid) { kill(child, SIGKILL) }
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }

        /// Three readings agree once the tree's memory holds still (sleeping processes do; a
        /// process still starting may not, so a few rounds are allowed).
        private static func agree(on pid: Int32, footprint: ProcessFootprint) -> (Int?, Int?, Int?) {
            var readings: (Int?, Int?, Int?) = (nil, nil, nil)
            for _ in 0..<20 {
                readings = (TextReader.footprint(ofProcessGroupLeader: pid), footprint.read(),
                    FootprintReader().footprint(ofProcessGroupLeader: pid))
                if readings.0 == readings.1, readings.1 == readings.2 { break }
                usleep(20_000)
            }
            return readings
        }

        @Test(
            "A process with children and grandchildren, and one whose child belongs to a second thread",
            arguments: [
                (["/bin/sh", "-c", "sleep 30 & sleep 30 & (sleep 30 & sleep 30 & wait) & wait"], 5),
                (
                    [
                        "/usr/bin/python3", "-c",
                        "import subprocess, threading, time\n"
                            + "def work():\n    subprocess.Popen(['sleep', '30']); time.sleep(30)\n"
                            + "threading.Thread(target=work, daemon=True).start(); time.sleep(30)",
                    ], 1
                ),
                (["/bin/sleep", "30"], 0),
            ])
        func sameAsTextReader(arguments: [String], descendants: Int) throws {
            let process = try Self.start(arguments, descendants: descendants)
            defer { Self.stop(process) }
            let pid = process.processIdentifier
            let footprint = ProcessFootprint(pid: pid)
            defer { footprint.close() }
            let readings = Self.agree(on: pid, footprint: footprint)
            #expect(readings.0 != nil)
            #expect(readings.0 == readings.1)
            #expect(readings.0 == readings.2)
            #expect(
                FootprintReader().descendants(of: pid).sorted() == TextReader.descendants(of: pid).sorted())
            // Read again through the same descriptors: the text reader's figure. Again a round
            // of both, as a process can still be starting when the three first agree (a page
            // more for `sleep` once, 40,960 against 32,768 bytes).
            let again = Self.agree(on: pid, footprint: footprint)
            #expect(again.1 != nil)
            #expect(again.1 == again.0)
        }

        @Test("A child that appears after the first read is counted by the next, through the same descriptors")
        func newChild() throws {
            let input = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [
                "-c", "import subprocess, sys, time\nsys.stdin.readline()\nsubprocess.Popen(['sleep', '30'])\ntime.sleep(30)",
            ]
            process.standardInput = input
            try process.run()
            defer { Self.stop(process) }
            let pid = process.processIdentifier
            let footprint = ProcessFootprint(pid: pid)
            defer { footprint.close() }
            #expect(footprint.read() != nil)
            #expect(TextReader.descendants(of: pid).isEmpty)
            input.fileHandleForWriting.write(Data("go\n".utf8))
            let deadline = Date() + 10
            while TextReader.descendants(of: pid).isEmpty, Date() < deadline { usleep(10_000) }
            #expect(TextReader.descendants(of: pid).count == 1)
            let readings = Self.agree(on: pid, footprint: footprint)
            #expect(readings.0 != nil)
            #expect(readings.0 == readings.1)
            #expect(readings.0 == readings.2)
        }

        @Test("Gone is nil: a zombie (no memory lines), then reaped; a closed reader too")
        func goneProcess() throws {
            var pid: pid_t = 0
            let arguments = ["/bin/sh", "-c", "read line"]
            var argv = arguments.map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var stdinPipe: [Int32] = [0, 0]
            #expect(pipe(&stdinPipe) == 0)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
            posix_spawn_file_actions_addclose(&actions, stdinPipe[1])
            #expect(posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ) == 0)
            close(stdinPipe[0])
            var reaped = false
            defer {
                if !reaped {
                    kill(pid, SIGKILL)
                    var status: Int32 = 0
                    waitpid(pid, &status, 0)
                }
            }
            let footprint = ProcessFootprint(pid: pid)
            #expect(footprint.read() != nil)
            close(stdinPipe[1])  // `read` sees the end of its input and the shell exits.
            let deadline = Date() + 10
            func state() -> Character? {
                guard let text = KernelFile.read("/proc/\(pid)/stat"), let paren = text.lastIndex(of: ")") else { return nil }
                return text[text.index(paren, offsetBy: 2)]
            }
            while state() != "Z", Date() < deadline { usleep(5_000) }
            try #require(state() == "Z", "the shell did not exit")
            #expect(footprint.read() == nil)
            #expect(TextReader.footprint(ofProcessGroupLeader: pid) == nil)
            var status: Int32 = 0
            #expect(waitpid(pid, &status, 0) == pid)
            reaped = true
            #expect(footprint.read() == nil)
            #expect(FootprintReader().footprint(ofProcessGroupLeader: pid) == nil)

            let own = ProcessFootprint(pid: getpid())
            #expect(own.read() != nil)
            own.close()
            #expect(own.read() == nil)
        }

        @Test("Reading keeps two descriptors open (statm or status, and task), closing them leaves none behind")
        func descriptors() throws {
            let process = try Self.start(["/bin/sleep", "30"], descendants: 0)
            defer { Self.stop(process) }
            let pid = process.processIdentifier
            /// This process's descriptors open on the sleeping process's /proc files (nothing
            /// else running in the test process opens them).
            func open() -> [String] {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
                return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
                    .filter { $0.hasPrefix("/proc/\(pid)/") }.sorted()
            }
            let footprint = ProcessFootprint(pid: pid)
            for _ in 0..<1_000 { #expect(footprint.read() != nil) }
            for _ in 0..<1_000 { #expect(FootprintReader().footprint(ofProcessGroupLeader: pid) != nil) }
            #expect(open() == ["/proc/\(pid)/\(Swap.inUse() ? "status" : "statm")", "/proc/\(pid)/task"])
            footprint.close()
            #expect(open() == [])
        }

        /// A reader that reads `status` (as while swap is in use) or `statm`, whatever swap does.
        private static func reader(status: Bool) -> FootprintReader {
            var reader = FootprintReader()
            reader.swapInUse = { status }
            return reader
        }

        @Test("statm (no swap in use) and status give the same figure for the same tree, also when the gate flips between reads")
        func statmAndStatus() throws {
            // With swap in use on this machine a sleeping process could hold pages in it, which statm does not see.
            guard !Swap.inUse() else { return }
            let process = try Self.start(["/bin/sh", "-c", "sleep 30 & (sleep 30 & wait) & wait"], descendants: 3)
            defer { Self.stop(process) }
            let pid = process.processIdentifier
            let statm = ProcessFootprint(pid: pid, reader: Self.reader(status: false))
            let status = ProcessFootprint(pid: pid, reader: Self.reader(status: true))
            defer {
                statm.close()
                status.close()
            }
            var readings: [Int?] = []
            for _ in 0..<20 {
                readings = [
                    statm.read(), status.read(), Self.reader(status: false).footprint(ofProcessGroupLeader: pid),
                    Self.reader(status: true).footprint(ofProcessGroupLeader: pid), TextReader.footprint(ofProcessGroupLeader: pid),
                ]
                if Set(readings).count == 1 { break }
                usleep(20_000)
            }
            #expect(readings[0] != nil)
            #expect(Set(readings).count == 1, "\(readings)")
            // The gate flips from one read to the next: each file is opened once, beside the task directory.
            var flipping = FootprintReader()
            let calls = Mutex(0)
            flipping.swapInUse = { calls.withLock { $0 += 1; return $0 % 2 == 0 } }
            let flipped = ProcessFootprint(pid: pid, reader: flipping)
            defer { flipped.close() }
            // Each read against one through status just after it (the tree's memory may move a page
            // between reads on a busy machine, so a few rounds are allowed).
            for _ in 0..<4 {
                var pair: (Int?, Int?) = (nil, nil)
                for _ in 0..<20 {
                    pair = (flipped.read(), Self.reader(status: true).footprint(ofProcessGroupLeader: pid))
                    if pair.0 == pair.1 { break }
                    usleep(20_000)
                }
                #expect(pair.0 != nil)
                #expect(pair.0 == pair.1)
            }
        }

        @Test("statm's text: resident minus shared pages; a zombie's zeros and anything malformed are nil", arguments: [
            ("2875 1523 1136 254 0 340 0\n", (1523 - 1136) * ProcScanner.pageSize),
            ("1 1 0 0 0 0 0\n", ProcScanner.pageSize),
            ("5 7 7 0 0 0 0\n", 0),
            ("0 0 0 0 0 0 0\n", nil),
            ("2875 1523\n", nil),
            ("2875 1523 x 254 0 340 0\n", nil),
            ("2875  1523 1136 254 0 340 0\n", nil),
            ("2875 1523 2000 254 0 340 0\n", nil),
            ("", nil),
            ("99999999999999999999 1 1 0 0 0 0\n", nil),
        ] as [(String, Int?)])
        func statmText(text: String, bytes: Int?) {
            var text = text
            #expect(text.withUTF8 { ProcScanner.parseStatm(UnsafeRawBufferPointer($0)) } == bytes)
        }

        @Test("A status file larger than the buffer, and a made-up tree, through a fake /proc")
        func fakeProc() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            func write(_ text: String, _ path: String) throws {
                let url = URL(fileURLWithPath: root + "/" + path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
            let padding = String(repeating: "Padding:\t0 kB\n", count: 800)  // ~11 KB before the figures
            try write(padding + "RssAnon:\t  100 kB\nVmSwap:\t  5 kB\n", "10/status")
            try write("", "10/task/10/children")
            try write("11 12\n", "10/task/13/children")
            try write("RssAnon:\t20 kB\n", "11/status")
            try write("", "11/task/11/children")
            try write("RssAnon:\t3 kB\nVmSwap:\t1 kB\n", "12/status")
            try write("14 ", "12/task/12/children")
            try write("RssAnon:\t7 kB\n", "14/status")
            let reader = FootprintReader(procRoot: root)
            #expect(reader.descendants(of: 10).sorted() == [11, 12, 14])
            #expect(reader.footprint(ofProcessGroupLeader: 10) == (105 + 20 + 4 + 7) * 1024)
            let footprint = ProcessFootprint(pid: 10, reader: reader)
            #expect(footprint.read() == (105 + 20 + 4 + 7) * 1024)
            #expect(reader.footprint(ofProcessGroupLeader: 99) == nil)
            #expect(ProcessFootprint(pid: 99, reader: reader).read() == nil)
        }
    }
}

extension FootprintTests.ProcessFootprintTests {
    /// This process's descriptors open on `pid`'s /proc files.
    private static func openFiles(of pid: Int32) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix("/proc/\(pid)/") }.sorted()
    }

    @Test("prepare() opens before the first read what read() keeps; reads after it keep no more and give the same figure")
    func prepared() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["30"]
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let pid = process.processIdentifier
        let kept = ["/proc/\(pid)/\(Swap.inUse() ? "status" : "statm")", "/proc/\(pid)/task"]
        let footprint = ProcessFootprint(pid: pid)
        #expect(Self.openFiles(of: pid) == [])
        footprint.prepare()
        #expect(Self.openFiles(of: pid) == kept)
        footprint.prepare()
        #expect(Self.openFiles(of: pid) == kept)
        var same = false
        for _ in 0..<20 where !same {
            same = footprint.read() == ProcessFootprint(pid: pid).read() && footprint.read() != nil
            if !same { usleep(20_000) }
        }
        #expect(same)
        #expect(Self.openFiles(of: pid) == kept)
        footprint.close()
        footprint.prepare()
        #expect(Self.openFiles(of: pid) == [])
        #expect(footprint.read() == nil)
    }
}
