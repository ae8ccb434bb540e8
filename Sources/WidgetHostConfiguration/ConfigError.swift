/// Why a config or scenario file was refused, as one line a person can act on:
/// `config/widgethost.toml:14: budget.min = 90 is above budget.max = 70; set budget.min ≤ budget.max`.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The file does not exist (a caller may fall back to the defaults).
        case fileNotFound
        /// The file exists but cannot be read, or is not UTF-8.
        case unreadable
        /// Not valid TOML, as TOMLKit (toml++) reports it (the error also carries a column).
        case syntax
        /// A table or key widgethostd does not know.
        case unknownKey
        /// A value of the wrong TOML type (a string where an integer belongs).
        case wrongType
        /// A value of the right type that does not mean anything (`"5 minutes"`, `cgroup = "on"`).
        case invalidValue
        /// Negative, zero or too large where that is not allowed.
        case outOfRange
        /// Two values that contradict each other (`budget.min > budget.max`).
        case inconsistent
    }

    public var kind: Kind
    /// The file as the user named it.
    public var file: String
    /// The line the error is about, when it is about one.
    public var line: Int?
    /// The column, for syntax errors (not printed: `file:line:` is the form every message has).
    public var column: Int?
    /// What was wrong and what to do, without the location.
    public var message: String

    public init(kind: Kind, file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        guard let line else { return "\(file): \(message)" }
        return "\(file):\(line): \(message)"
    }
}
