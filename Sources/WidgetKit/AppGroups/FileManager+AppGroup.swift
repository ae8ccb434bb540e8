#if !canImport(Darwin)  // Apple's Foundation has its own.
extension FileManager {
    /// The name provider code already uses on Apple platforms; see `AppGroup`.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        AppGroup.containerURL(forSecurityApplicationGroupIdentifier: groupIdentifier)
    }
}
#endif
