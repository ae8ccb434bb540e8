import Foundation
import Testing

/// What `make install` stages from the release build runs on a Debian 12 machine without the
/// Swift toolchain: scripts/check-installed-elf.sh reads every ELF file (no RUNPATH/RPATH, no
/// NEEDED library outside libc6, libgcc-s1, libstdc++6, libsqlite3-0 and libsystemd0, no
/// executable stack). `make test` builds the release first (`make release`); a plain
/// `swift test` without it skips these.
@Suite(
    "Installed files run without the toolchain",
    .serialized,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "\(packageRoot)/.build/release/widgethostd")
            && FileManager.default.fileExists(atPath: "\(packageRoot)/.build/release-examples"),
        "no release build (make release, which make test runs first)"))
struct InstalledFilesTests {
    /// `make install DESTDIR=root`, without building: the same script, flags and inputs.
    private func stageRelease() throws -> String {
        let root = try makeShortTemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["STRIP"] = "yes"
        environment["PLUGINS"] = ".build/release-examples"
        environment["DEBUG_DIR"] = root + "-debug"
        let install = try runCommand(
            "scripts/install.sh", ["\(packageRoot)/.build/release", "/usr", root], environment: environment)
        try #require(install.status == 0, "scripts/install.sh failed: \(install.output)")
        return root
    }

    @Test("Every ELF file make install stages: no run path, only Debian 12 libraries, stripped, debug info apart; an extension runs")
    func stagedReleaseFiles() throws {
        let root = try stageRelease()
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: root + "-debug")
        }
        let check = try runCommand("scripts/check-installed-elf.sh", [root])
        #expect(check.status == 0, "\(check.output)")
        let checked = check.standardOutput.split(separator: "\n").filter { $0.hasPrefix("checked ") }
        // widgethostd, widgethost and the four example extensions.
        #expect(checked.count == 6, "\(check.standardOutput)")
        for bundle in ["BirthdayReminders", "W8Trackr", "LucidPal", "Widgy"] {
            #expect(check.standardOutput.contains("/usr/lib/widgethost/plugins/\(bundle).appex/"), "\(bundle) not checked")
        }

        for binary in ["usr/bin/widgethostd", "usr/bin/widgethost"] {
            let sections = try runCommand("readelf", ["-SW", "\(root)/\(binary)"])
            #expect(!sections.standardOutput.contains(".debug_info"), "\(binary) is not stripped")
            #expect(!sections.standardOutput.contains(".symtab"), "\(binary) keeps its symbol table")
            #expect(sections.standardOutput.contains(".gnu_debuglink"), "\(binary) does not name its debug file")
        }
        let debugFiles = FileManager.default.enumerator(atPath: root + "-debug")?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".debug") } ?? []
        #expect(debugFiles.count == 6, "debug files kept apart: \(debugFiles)")

        // And a staged, stripped extension runs with no Swift library on the search path.
        let executable = "\(root)/usr/lib/widgethost/plugins/BirthdayReminders.appex/BirthdayRemindersWidget"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // Nothing from the toolchain can be found: no LD_LIBRARY_PATH, and no run path (above).
        process.environment = ["PATH": "/usr/bin:/bin"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n".utf8))
        try input.fileHandleForWriting.close()
        let reply = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(reply.contains("\"BirthdayHomeWidget\""), "\(reply)")

        let ldd = try runCommand("ldd", [executable])
        #expect(!ldd.output.contains("not found"), "\(ldd.output)")
        #expect(!ldd.output.contains("swift"), "\(ldd.output)")
    }

    @Test("The check fails on what the issue found: a debug build's Swift runtime libraries and toolchain run path")
    func checkCatchesToolchainLinks() throws {
        let root = try makeShortTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let debugWidget = "\(builtProductsDirectory)/BirthdayRemindersWidget"
        try #require(FileManager.default.isExecutableFile(atPath: debugWidget), "no debug build")
        try FileManager.default.createDirectory(atPath: root + "/usr/lib/widgethost/plugins/B.appex", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: debugWidget, toPath: root + "/usr/lib/widgethost/plugins/B.appex/B")

        let check = try runCommand("scripts/check-installed-elf.sh", [root])
        #expect(check.status != 0)
        #expect(check.standardOutput.contains("FAIL /usr/lib/widgethost/plugins/B.appex/B: NEEDED libswiftCore.so"), "\(check.output)")
        #expect(check.standardOutput.contains("FAIL /usr/lib/widgethost/plugins/B.appex/B: RUNPATH/RPATH"), "\(check.output)")
    }
}

@Suite("scripts/install.sh says one thing, what docs/operations.md says")
struct InstallMessageTests {
    @Test("A direct install ends with one message: sysusers, tmpfiles, daemon-reload, then socket and service enabled")
    func oneMessage() throws {
        let prefix = try makeShortTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        var environment = ProcessInfo.processInfo.environment
        environment["SYSCONFDIR"] = "\(prefix)/etc"
        let install = try runCommand("scripts/install.sh", [builtProductsDirectory, "\(prefix)/usr"], environment: environment)
        try #require(install.status == 0, "scripts/install.sh failed: \(install.output)")

        let enable = "systemctl enable --now widgethostd.socket widgethostd.service"
        let prepare = "systemd-sysusers && systemd-tmpfiles --create && systemctl daemon-reload"
        #expect(install.standardError.components(separatedBy: "installed under").count == 2, "\(install.standardError)")
        #expect(install.standardError.contains(enable), "\(install.standardError)")
        #expect(install.standardError.contains(prepare), "\(install.standardError)")
        #expect(install.standardError.contains("add \(prefix)/usr/lib/widgethost/plugins to plugins.paths"))
        let lines = install.standardError.split(separator: "\n")
        #expect(lines.last?.trimmingCharacters(in: .whitespaces) == enable, "the message ends with the enable line")

        let operations = try String(contentsOfFile: "\(packageRoot)/docs/operations.md", encoding: .utf8)
        #expect(operations.contains(enable))
        #expect(operations.contains("systemctl daemon-reload"))
    }
}
