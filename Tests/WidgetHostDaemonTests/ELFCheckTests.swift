import Foundation
import Testing

/// scripts/ship-swift-runtime.sh and scripts/check-installed-elf.sh on a staged debug
/// extension (no release build needed): the runtime shipped beside it makes it run with
/// nothing from the toolchain, and the check fails on each way an install can go wrong.
@Suite("The Swift runtime shipped once, and the ELF check that guards it", .serialized)
struct ELFCheckTests {
    private static let runtimeDirectory = "/usr/lib/widgethost/swift"
    private static let bundleExecutable = "/usr/lib/widgethost/plugins/B.appex/B"

    /// ROOT/usr/lib/widgethost/plugins/B.appex/B, a debug build of BirthdayReminders'
    /// widget, with the Swift runtime shipped in ROOT/usr/lib/widgethost/swift.
    private func stageDebugExtension(ship: Bool = true) throws -> String {
        let debugWidget = "\(builtProductsDirectory)/BirthdayRemindersWidget"
        try #require(FileManager.default.isExecutableFile(atPath: debugWidget), "no debug build")
        let root = try makeShortTemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: root + "/usr/lib/widgethost/plugins/B.appex", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: debugWidget, toPath: root + Self.bundleExecutable)
        if ship {
            let shipped = try runCommand("scripts/ship-swift-runtime.sh", [root + "/usr", root + Self.bundleExecutable])
            try #require(shipped.status == 0, "\(shipped.output)")
        }
        return root
    }

    private func check(_ root: String) throws -> CommandResult {
        try runCommand("scripts/check-installed-elf.sh", [root])
    }

    @Test("A bundle with the runtime shipped: the libraries it NEEDS, its run path relative, it runs from there")
    func shippedRuntimeRuns() throws {
        let root = try stageDebugExtension()
        defer { try? FileManager.default.removeItem(atPath: root) }

        let result = try check(root)
        #expect(result.status == 0, "\(result.output)")
        let dynamic = try runCommand("readelf", ["-dW", root + Self.bundleExecutable]).standardOutput
        #expect(dynamic.contains("Library runpath: [$ORIGIN/../../swift]"), "\(dynamic)")
        let shipped = try FileManager.default.contentsOfDirectory(atPath: root + Self.runtimeDirectory)
        for library in ["libswiftCore.so", "libFoundation.so", "lib_FoundationICU.so", "libdispatch.so"] {
            #expect(shipped.contains(library), "\(library) not shipped: \(shipped)")
        }
        // Only what is needed: nothing from the toolchain that no file NEEDS.
        #expect(!shipped.contains("libXCTest.so") && !shipped.contains("libFoundationNetworking.so"), "\(shipped)")

        try expectRunsFromShippedRuntime(root: root, executable: root + Self.bundleExecutable)
    }

    @Test("The check fails on what the issue found: a debug build's toolchain run path and Swift libraries not shipped")
    func toolchainLinks() throws {
        let root = try stageDebugExtension(ship: false)
        defer { try? FileManager.default.removeItem(atPath: root) }

        let result = try check(root)
        #expect(result.status != 0)
        #expect(result.standardOutput.contains("FAIL \(Self.bundleExecutable): RUNPATH/RPATH /"), "\(result.output)")
        #expect(
            result.standardOutput.contains(
                "FAIL \(Self.bundleExecutable): NEEDED libswiftCore.so, a Swift runtime library not shipped"),
            "\(result.output)")
    }

    @Test("The check fails on a NEEDED Swift library that is not shipped, even one only another library needs")
    func libraryNotShipped() throws {
        let root = try stageDebugExtension()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.removeItem(atPath: root + Self.runtimeDirectory + "/lib_FoundationICU.so")

        let result = try check(root)
        #expect(result.status != 0)
        #expect(
            result.standardOutput.contains(
                "FAIL \(Self.runtimeDirectory)/libFoundation.so: NEEDED lib_FoundationICU.so, a Swift runtime library not shipped"),
            "\(result.output)")
    }

    @Test("The check fails on a NEEDED library the target system lacks")
    func systemLibraryMissing() throws {
        let root = try stageDebugExtension()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let patch = try runCommand("patchelf", ["--add-needed", "libcurl.so.4", root + Self.bundleExecutable])
        try #require(patch.status == 0, "\(patch.output)")

        let result = try check(root)
        #expect(result.status != 0)
        #expect(
            result.standardOutput.contains(
                "FAIL \(Self.bundleExecutable): NEEDED libcurl.so.4, which no Debian 12 package this one depends on provides"),
            "\(result.output)")
    }

    @Test("The check fails on a run path into the toolchain or beside the binary, even next to the shipped one")
    func runPathOutsideShippedRuntime() throws {
        let root = try stageDebugExtension()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let toolchain = try runCommand("swift", ["-print-target-info"]).standardOutput
        let runtime = try #require(
            toolchain.split(separator: "\"").first { $0.hasSuffix("/lib/swift/linux") }.map(String.init))
        let patch = try runCommand(
            "patchelf", ["--set-rpath", "$ORIGIN/../../swift:\(runtime):$ORIGIN", root + Self.bundleExecutable])
        try #require(patch.status == 0, "\(patch.output)")

        let result = try check(root)
        #expect(result.status != 0)
        #expect(result.standardOutput.contains("FAIL \(Self.bundleExecutable): RUNPATH/RPATH \(runtime) "), "\(result.output)")
        #expect(result.standardOutput.contains("FAIL \(Self.bundleExecutable): RUNPATH/RPATH $ORIGIN "), "\(result.output)")
        #expect(!result.standardOutput.contains("RUNPATH/RPATH $ORIGIN/../../swift"), "\(result.output)")
    }

    @Test("The check fails on a shipped library that nothing NEEDS (left over from an earlier install)")
    func leftOverLibrary() throws {
        let root = try stageDebugExtension()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(
            atPath: root + Self.runtimeDirectory + "/libswiftCore.so",
            toPath: root + Self.runtimeDirectory + "/libswiftUnused.so")

        let result = try check(root)
        #expect(result.status != 0)
        #expect(
            result.standardOutput.contains("FAIL \(Self.runtimeDirectory)/libswiftUnused.so: shipped, but no ELF file NEEDS it"),
            "\(result.output)")
    }
}

/// `executable` answers `initialize` with no Swift library on any search path but its own run
/// path, and `ldd` resolves every Swift library it loads inside ROOT/usr/lib/widgethost/swift
/// (the rest from the system's library directories), none from the toolchain.
func expectRunsFromShippedRuntime(root: String, executable: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    // No LD_LIBRARY_PATH: only the file's RUNPATH can lead anywhere.
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

    let ldd = try runCommand("ldd", [executable], environment: ["PATH": "/usr/bin:/bin"])
    #expect(ldd.status == 0 && !ldd.output.contains("not found"), "\(ldd.output)")
    let shipped = URL(fileURLWithPath: root + "/usr/lib/widgethost/swift").standardized.path + "/"
    var fromShipped = 0
    for line in ldd.standardOutput.split(separator: "\n") where line.contains(" => ") {
        let parts = line.split(separator: " ")
        guard let arrow = parts.firstIndex(of: "=>"), arrow + 1 < parts.count else { continue }
        let path = URL(fileURLWithPath: String(parts[arrow + 1])).standardized.path
        if path.hasPrefix(shipped) {
            fromShipped += 1
        } else {
            #expect(path.hasPrefix("/lib/") || path.hasPrefix("/usr/lib/"), "\(line) comes from neither \(shipped) nor the system")
            #expect(!path.contains("swift") && !path.contains("Foundation"), "\(line): a Swift library from outside \(shipped)")
        }
    }
    #expect(fromShipped >= 10, "\(ldd.output)")
}
