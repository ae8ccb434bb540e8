import Foundation
import Testing

/// What `make install` stages from the release build runs on a Debian 12 machine without the
/// Swift toolchain: scripts/check-installed-elf.sh reads every ELF file (no run path but the
/// $ORIGIN-relative one to the Swift runtime shipped in PREFIX/lib/widgethost/swift, every
/// NEEDED Swift library shipped there, no other NEEDED library outside libc6, libgcc-s1,
/// libstdc++6, libsqlite3-0 and libsystemd0, no executable stack). `make test` builds the
/// release first (`make release`); a plain `swift test` without it skips these
/// (ELFCheckTests covers the same check on a debug build).
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

    @Test("Every ELF file make install stages: the runtime shipped once, run paths relative, stripped, debug info apart; they run")
    func stagedReleaseFiles() throws {
        let root = try stageRelease()
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: root + "-debug")
        }
        let check = try runCommand("scripts/check-installed-elf.sh", [root])
        #expect(check.status == 0, "\(check.output)")
        let checked = check.standardOutput.split(separator: "\n").filter { $0.hasPrefix("checked ") }
        let executables = checked.filter { !$0.hasPrefix("checked /usr/lib/widgethost/swift/") }
        // widgethostd, widgethost (the front), widgethost-cli and the five example extensions;
        // the rest are the runtime.
        #expect(executables.count == 8, "\(check.standardOutput)")
        #expect(checked.contains { $0.hasPrefix("checked /usr/lib/widgethost/swift/libswiftCore.so:") })
        for bundle in ["BirthdayReminders", "W8Trackr", "LucidPal", "Widgy", "PizzaDelivery"] {
            #expect(check.standardOutput.contains("/usr/lib/widgethost/plugins/\(bundle).appex/"), "\(bundle) not checked")
        }

        let runPaths = [
            "usr/bin/widgethostd": "$ORIGIN/../lib/widgethost/swift",
            "usr/libexec/widgethost/widgethost-cli": "$ORIGIN/../../lib/widgethost/swift",
            "usr/lib/widgethost/plugins/BirthdayReminders.appex/BirthdayRemindersWidget": "$ORIGIN/../../swift",
        ]
        for (binary, runPath) in runPaths {
            let dynamic = try runCommand("readelf", ["-dW", "\(root)/\(binary)"])
            #expect(dynamic.standardOutput.contains("Library runpath: [\(runPath)]"), "\(binary): \(dynamic.standardOutput)")
        }
        // The CLI's front is linked statically (issue 16: the dynamic loader was most of the CLI's start): no dynamic section.
        let front = try runCommand("readelf", ["-dW", "\(root)/usr/bin/widgethost"])
        #expect(front.standardOutput.contains("no dynamic section"), "the front is dynamic: \(front.standardOutput)")
        for binary in [
            "usr/bin/widgethostd", "usr/bin/widgethost", "usr/libexec/widgethost/widgethost-cli",
            "usr/lib/widgethost/swift/libFoundation.so",
        ] {
            let sections = try runCommand("readelf", ["-SW", "\(root)/\(binary)"])
            #expect(!sections.standardOutput.contains(".debug_info"), "\(binary) is not stripped")
            #expect(!sections.standardOutput.contains(".symtab"), "\(binary) keeps its symbol table")
        }
        for binary in ["usr/bin/widgethostd", "usr/bin/widgethost", "usr/libexec/widgethost/widgethost-cli"] {
            let sections = try runCommand("readelf", ["-SW", "\(root)/\(binary)"])
            #expect(sections.standardOutput.contains(".gnu_debuglink"), "\(binary) does not name its debug file")
        }
        let debugFiles = FileManager.default.enumerator(atPath: root + "-debug")?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".debug") } ?? []
        // One per executable checked above: the three commands and the five example extensions.
        #expect(debugFiles.count == 8, "debug files kept apart: \(debugFiles)")

        // The staged, stripped binaries run with no Swift library on any search path but
        // their own run path: an extension answers, the daemon and the CLI print their help
        // (the front runs the full CLI from ../libexec/widgethost).
        try expectRunsFromShippedRuntime(
            root: root, executable: "\(root)/usr/lib/widgethost/plugins/BirthdayReminders.appex/BirthdayRemindersWidget")
        for binary in ["widgethostd", "widgethost"] {
            let help = try runCommand("\(root)/usr/bin/\(binary)", ["--help"], environment: ["PATH": "/usr/bin:/bin"])
            #expect(help.status == 0 && help.output.contains("USAGE"), "\(binary): \(help.output)")
        }
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
