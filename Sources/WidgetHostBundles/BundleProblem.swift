import WidgetHostProtocol

/// Why a bundle was not loaded, as a sentence that names the file and the fix:
/// `Examples/Foo.appex/Info.plist: NSExtension.NSExtensionPointIdentifier is missing; add
/// "com.apple.widgetkit-extension" (without it the widget never appears)`.
public struct BundleProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The directory is not named `NAME.appex`.
        case notAppex
        /// The path does not exist or is not a directory.
        case notADirectory
        case infoPlistMissing
        /// Not a property list, or not a dictionary at the top level.
        case infoPlistMalformed
        case identifierMissing
        /// Without a dot, with characters a bundle id cannot have, or an unexpanded `$(…)`.
        case identifierInvalid
        case executableKeyMissing
        /// Not a plain file name inside the bundle.
        case executableNameInvalid
        case executableMissing
        case executableNotExecutable
        case extensionMissing
        case extensionPointMissing
        case extensionPointWrong
        /// A key of Info.plist or the entitlements holds the wrong type of value.
        case wrongType
        /// The entitlements file is not a property list, or not a dictionary.
        case entitlementsMalformed
        /// Several `.entitlements` files and none named after the bundle.
        case entitlementsAmbiguous
        /// An app group id the host cannot make a container for.
        case appGroupInvalid
        /// Another bundle found earlier has the same `CFBundleIdentifier`.
        case duplicateIdentifier
    }

    public var kind: Kind
    /// The bundle directory, as given.
    public var bundle: String
    /// The file the sentence is about (Info.plist, the executable, the entitlements, or the bundle).
    public var file: String
    /// What is wrong and what to do, after `file: `.
    public var message: String

    public init(_ kind: Kind, bundle: String, file: String, message: String) {
        self.kind = kind
        self.bundle = bundle
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }

    /// The wire form for `extensions` and `rescan`.
    public var skipped: SkippedBundle { SkippedBundle(path: bundle, reason: description) }
}
