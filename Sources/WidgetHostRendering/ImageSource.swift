import Foundation

/// Where the renderer gets the pixels of `Image("name")` and `Image(fileURL:)`. The page
/// never loads anything itself: an image it may show is inlined as a `data:` URL, and
/// anything else is refused with the reason shown in its place.
public protocol ImageSource: Sendable {
    func image(asset name: String) -> ImageLookup
    func image(file path: String) -> ImageLookup
}

public enum ImageLookup: Sendable, Hashable {
    /// A `data:` URL of a PNG, JPEG, GIF or WebP image.
    case found(dataURL: String)
    case refused(String)
}

/// No images at all (tests, and rendering without a bundle).
public struct NoImages: ImageSource {
    public init() {}
    public func image(asset name: String) -> ImageLookup { .refused("no bundle to look for \(name) in") }
    public func image(file path: String) -> ImageLookup { .refused("no app group containers are known") }
}

/// Images from an extension bundle (`Resources/NAME.png` …) and its app group containers,
/// as on a device: a path outside them, a remote URL, a symlink that leads out, a file that
/// is not a known image format, or one over `maxBytes`, is refused.
public struct BundleImages: ImageSource {
    public var bundle: URL
    public var appGroupContainers: [URL]
    public var maxBytes: Int

    public init(bundle: URL, appGroupContainers: [URL], maxBytes: Int = 1 << 20) {
        self.bundle = bundle
        self.appGroupContainers = appGroupContainers
        self.maxBytes = maxBytes
    }

    public func image(asset name: String) -> ImageLookup {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            return .refused("\"\(name)\" is not an image name")
        }
        for directory in ["Resources", "Resources/Images", ""] {
            for ext in ["png", "jpg", "jpeg", "gif", "webp"] {
                let url = bundle.appendingPathComponent(directory).appendingPathComponent(name + "." + ext)
                if FileManager.default.fileExists(atPath: url.path) { return load(url, within: [bundle]) }
            }
        }
        return .refused("no image named \(name) in the bundle")
    }

    public func image(file path: String) -> ImageLookup {
        if path.contains("://") || !path.hasPrefix("/") {
            return .refused("only files in the bundle or its app groups are shown, not \(path)")
        }
        return load(URL(fileURLWithPath: path), within: [bundle] + appGroupContainers)
    }

    private func load(_ url: URL, within roots: [URL]) -> ImageLookup {
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
        let inside = roots.contains { root in
            let base = root.resolvingSymlinksInPath().standardizedFileURL.path
            return resolved.hasPrefix(base.hasSuffix("/") ? base : base + "/")
        }
        guard inside else { return .refused("\(url.path) is outside the bundle and its app groups") }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
            let size = attributes[.size] as? Int
        else { return .refused("\(url.lastPathComponent) cannot be read") }
        guard size <= maxBytes else { return .refused("\(url.lastPathComponent) is over \(maxBytes) bytes") }
        guard let data = FileManager.default.contents(atPath: resolved), let type = Self.mediaType(data) else {
            return .refused("\(url.lastPathComponent) is not a PNG, JPEG, GIF or WebP image")
        }
        return .found(dataURL: "data:\(type);base64,\(data.base64EncodedString())")
    }

    /// By the file's first bytes, never its name.
    static func mediaType(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        return nil
    }
}
