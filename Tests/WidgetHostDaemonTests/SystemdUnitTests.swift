import Foundation
import Testing

/// The units as `make install` lays them out, checked by systemd's own tools. None of this
/// needs systemd running as PID 1.
@Suite("systemd units", .tags(.process), .serialized)
struct SystemdUnitTests {
    /// `scripts/install.sh` into a staging root (PREFIX=/usr, DESTDIR=root) with the
    /// freshly built binaries, plus the host's own unit files so that `--root` finds
    /// sysinit.target and friends.
    static func stagedRoot() throws -> String {
        let root = try makeShortTemporaryDirectory()
        let install = try runCommand("scripts/install.sh", [builtProductsDirectory, "/usr", root])
        try #require(install.status == 0, "scripts/install.sh failed: \(install.output)")
        let copy = try runCommand("cp", ["-a", "/usr/lib/systemd/system/.", "\(root)/usr/lib/systemd/system/"])
        try #require(copy.status == 0, "cannot copy the host's units: \(copy.output)")
        return root
    }

    @Test("systemd-analyze verify prints nothing for widgethostd.service and .socket, installed where ExecStart= exists")
    func verifySystemUnits() throws {
        let root = try Self.stagedRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let units = ["widgethostd.service", "widgethostd.socket"].map { "\(root)/usr/lib/systemd/system/\($0)" }
        let result = try runCommand("systemd-analyze", ["verify", "--man=no", "--root=\(root)"] + units)
        #expect(result.status == 0)
        #expect(result.output == "", "systemd-analyze verify complained:\n\(result.output)")
    }

    @Test("systemd-analyze --user verify prints nothing for the per-user units")
    func verifyUserUnits() throws {
        // A user manager cannot take --root: install under a temporary PREFIX instead, so
        // that the units' ExecStart= names binaries that exist.
        let prefix = try makeShortTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        var environment = ProcessInfo.processInfo.environment
        environment["SYSCONFDIR"] = "\(prefix)/etc"
        let install = try runCommand(
            "\(packageRoot)/scripts/install.sh", [builtProductsDirectory, "\(prefix)/usr"], environment: environment)
        try #require(install.status == 0, "scripts/install.sh failed: \(install.output)")
        let runtime = "\(prefix)/run"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        environment["XDG_RUNTIME_DIR"] = runtime
        let units = ["widgethostd.service", "widgethostd.socket"].map { "\(prefix)/usr/lib/systemd/user/\($0)" }
        let result = try runCommand("systemd-analyze", ["--user", "verify", "--man=no"] + units, environment: environment)
        #expect(result.status == 0)
        #expect(result.output == "", "systemd-analyze --user verify complained:\n\(result.output)")
    }

    @Test("systemd-analyze security --offline=true rates widgethostd.service at an exposure of 2.0 or less")
    func securityExposure() throws {
        let root = try Self.stagedRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try runCommand(
            "systemd-analyze", ["security", "--offline=true", "--no-pager", "\(root)/usr/lib/systemd/system/widgethostd.service"])
        #expect(result.status == 0, "\(result.output)")
        let exposure = try #require(
            Self.overallExposure(result.output), "no overall exposure in:\n\(result.output)")
        // Measured 0.6 ("SAFE") with systemd 252; docs/operations.md records it.
        print("systemd-analyze security: widgethostd.service exposure \(exposure)")
        #expect(exposure <= 2.0, "exposure \(exposure):\n\(result.output)")
    }

    /// The figure in "→ Overall exposure level for widgethostd.service: 0.6 SAFE 😀".
    static func overallExposure(_ output: String) -> Double? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }),
            let colon = line.lastIndex(of: ":")
        else { return nil }
        return line[line.index(after: colon)...].split(separator: " ").first.flatMap { Double($0) }
    }

    @Test("The exposure figure is read from systemd-analyze's summary line")
    func parseExposure() {
        #expect(Self.overallExposure("x\n→ Overall exposure level for widgethostd.service: 0.6 SAFE 😀\n") == 0.6)
        #expect(Self.overallExposure("→ Overall exposure level for a.service: 9.2 UNSAFE 😨") == 9.2)
        #expect(Self.overallExposure("nothing here") == nil)
    }

    @Test("sysusers.d creates the user widgethost; tmpfiles.d the state and setgid App Groups directories")
    func sysusersAndTmpfiles() throws {
        let root = try Self.stagedRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sysusers = try runCommand("systemd-sysusers", ["--root=\(root)"])
        #expect(sysusers.status == 0, "\(sysusers.output)")
        let passwd = try String(contentsOfFile: "\(root)/etc/passwd", encoding: .utf8)
        let entry = try #require(passwd.split(separator: "\n").first { $0.hasPrefix("widgethost:") })
        let fields = entry.split(separator: ":", omittingEmptySubsequences: false)
        #expect(fields[5] == "/var/lib/widgethost")
        #expect(fields[6].hasSuffix("nologin"))
        let group = try String(contentsOfFile: "\(root)/etc/group", encoding: .utf8)
        #expect(group.split(separator: "\n").contains { $0.hasPrefix("widgethost:") })

        let tmpfiles = try runCommand(
            "systemd-tmpfiles", ["--create", "--root=\(root)", "\(root)/usr/lib/tmpfiles.d/widgethost.conf"])
        #expect(tmpfiles.status == 0, "\(tmpfiles.output)")
        let uid = UInt32(fields[2])
        func check(_ path: String, mode: UInt16, owner: UInt32?) {
            var status = stat()
            #expect(stat("\(root)\(path)", &status) == 0, "\(path) was not created")
            #expect(UInt16(status.st_mode & 0o7777) == mode, "\(path): mode \(String(status.st_mode & 0o7777, radix: 8))")
            if let owner { #expect(status.st_uid == owner, "\(path): owner \(status.st_uid)") }
        }
        check("/var/lib/widgethost", mode: 0o750, owner: uid)
        check("/var/lib/widgethost/AppGroups", mode: 0o2770, owner: uid)
        check("/etc/widgethost/plugins.d", mode: 0o755, owner: 0)
    }

    @Test("No shared library the built binaries load asks for an executable stack (MemoryDenyWriteExecute=yes)")
    func noExecutableStack() throws {
        let binaries = ["widgethostd", "widgethost", "widgethost-cli", "BirthdayRemindersWidget"]
            .map { "\(builtProductsDirectory)/\($0)" }
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
        try #require(binaries.contains { $0.hasSuffix("/widgethostd") }, "widgethostd is not built in \(builtProductsDirectory)")
        var checked: Set<String> = []
        for binary in binaries {
            // `widgethost` (the CLI's front) is a static executable: ldd says so, and the
            // executable's own header is all there is to read.
            let ldd = try runCommand("ldd", [binary])
            let isStatic = binary.hasSuffix("/widgethost") && ldd.output.contains("not a dynamic executable")
            #expect(ldd.status == 0 || isStatic, "\(ldd.output)")
            let libraries = isStatic ? [] : Self.loadedLibraries(ldd.standardOutput)
            for object in [binary] + libraries where checked.insert(object).inserted {
                let headers = try runCommand("readelf", ["-lW", object])
                #expect(headers.status == 0, "\(headers.output)")
                let stack = headers.standardOutput.split(separator: "\n").first { $0.contains("GNU_STACK") }
                // Without a GNU_STACK header the loader gives the process an executable stack.
                let flags = stack.map { Self.segmentFlags($0) } ?? "missing"
                #expect(flags == "RW", "\(object): GNU_STACK \(flags) — an executable stack needs W+X memory")
            }
        }
        #expect(checked.count > 5)
    }

    /// The paths in `ldd` output ("libfoo.so => /path (0x…)" and "/lib64/ld-linux… (0x…)").
    static func loadedLibraries(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let arrow = words.firstIndex(of: "=>"), arrow + 1 < words.count, words[arrow + 1].hasPrefix("/") {
                return String(words[arrow + 1])
            }
            return words.first.flatMap { $0.hasPrefix("/") ? String($0) : nil }
        }
    }

    /// The Flg column of a program header line: "RW", "RWE", …
    static func segmentFlags(_ line: Substring) -> String {
        let words = line.split(separator: " ")
        // Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg… Align
        guard words.count >= 8 else { return "?" }
        return words[6..<(words.count - 1)].joined()
    }

    @Test("ldd and readelf lines are read as expected")
    func parseLoaderOutput() {
        let ldd = """
            \tlinux-vdso.so.1 (0x00007ffc)
            \tlibsystemd.so.0 => /lib/x86_64-linux-gnu/libsystemd.so.0 (0x00007f)
            \t/lib64/ld-linux-x86-64.so.2 (0x00007f)
            """
        #expect(Self.loadedLibraries(ldd) == ["/lib/x86_64-linux-gnu/libsystemd.so.0", "/lib64/ld-linux-x86-64.so.2"])
        #expect(Self.segmentFlags("  GNU_STACK      0x000000 0x0 0x0 0x000000 0x000000 RW  0x10") == "RW")
        #expect(Self.segmentFlags("  GNU_STACK      0x000000 0x0 0x0 0x000000 0x000000 RWE 0x10") == "RWE")
    }

    @Test("The units keep what DESIGN.md asks of them")
    func unitSettings() throws {
        let service = try String(contentsOfFile: "\(packageRoot)/systemd/widgethostd.service", encoding: .utf8)
        let socket = try String(contentsOfFile: "\(packageRoot)/systemd/widgethostd.socket", encoding: .utf8)
        let settings = Self.settings(service)
        for expected in [
            "Type=notify", "NotifyAccess=main", "WatchdogSec=30s", "Restart=on-failure", "User=widgethost",
            "StateDirectory=widgethost", "ConfigurationDirectory=widgethost", "ProtectSystem=strict",
            "MemoryDenyWriteExecute=yes", "SystemCallFilter=@system-service", "RestrictAddressFamilies=AF_UNIX",
            "CapabilityBoundingSet=", "NoNewPrivileges=yes", "UMask=0077",
        ] {
            #expect(settings.contains(expected), "widgethostd.service lacks \(expected)")
        }
        #expect(settings.contains { $0.hasPrefix("ExecReload=") && !$0.contains("kill") }, "ExecReload must wait for the rescan")
        let delegates = settings.contains { $0.hasPrefix("Delegate=") }
        #expect(!(delegates && settings.contains { $0.hasPrefix("ProtectControlGroups=yes") }))
        #expect(!settings.contains { $0.hasPrefix("RuntimeDirectory=") }, "the socket must not live in a RuntimeDirectory=")
        let socketSettings = Self.settings(socket)
        for expected in [
            "ListenStream=/run/widgethost.sock", "SocketMode=0660", "SocketGroup=widgethost", "FileDescriptorName=control",
        ] {
            #expect(socketSettings.contains(expected), "widgethostd.socket lacks \(expected)")
        }
    }

    /// The `Key=value` lines of a unit file, comments dropped.
    static func settings(_ unit: String) -> [String] {
        unit.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("[") }
    }
}
