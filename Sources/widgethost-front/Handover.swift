#if canImport(Glibc)
import Glibc
#endif

/// Running the full CLI, `widgethost-cli`, in this process's place (`execv`, same arguments
/// and environment). It is found beside this executable (the build directory), then under
/// `../libexec/widgethost/` (PREFIX/bin → PREFIX/libexec/widgethost, where scripts/install.sh
/// puts it), then in /usr/libexec/widgethost; `WIDGETHOST_CLI` names another (the tests).
enum Handover {
    static let name = "widgethost-cli"
    /// Set for the full CLI when the front has already sent the request: `FD:MS`, the
    /// connected socket (its reply unread) and the milliseconds left of the 30-second timeout.
    static let resumeVariable = "WIDGETHOST_RESUME"

    static func candidates(besides executable: String) -> [String] {
        let directory = parent(executable)
        return [directory + "/" + name, parent(directory) + "/libexec/widgethost/" + name, "/usr/libexec/widgethost/" + name]
    }

    /// Replaces this process with the full CLI; returns only if that fails, with its exit status.
    static func exec(arguments: [String], resume: (descriptor: Int32, millisecondsLeft: Int)? = nil) -> Int32 {
        if let resume {
            // The socket stays open across exec: the full CLI reads the reply from it.
            _ = fcntl(resume.descriptor, F_SETFD, 0)
            setenv(resumeVariable, "\(resume.descriptor):\(resume.millisecondsLeft)", 1)
        }
        let paths: [String]
        if let path = getenv("WIDGETHOST_CLI") {
            paths = [String(cString: path)]
        } else {
            paths = candidates(besides: executablePath() ?? arguments.first ?? "widgethost")
        }
        // Name the path whose failure says most: the first that exists but would not run (a
        // directory the user may not enter, a missing execute bit), else the first tried.
        var failure: (path: String, error: Int32) = (paths.first ?? name, ENOENT)
        var found = false
        for path in paths {
            execvArguments(path: path, arguments: arguments)
            if !found, errno != ENOENT {
                failure = (path, errno)
                found = true
            }
        }
        let line = "widgethost: cannot run \(failure.path) (\(String(cString: strerror(failure.error)))); reinstall widgethost\n"
        _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
        return 70  // EX_SOFTWARE
    }

    private static func execvArguments(path: String, arguments: [String]) {
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        _ = execv(path, pointers)
        for pointer in pointers { free(pointer) }
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
