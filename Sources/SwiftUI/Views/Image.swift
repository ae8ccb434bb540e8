import WidgetHostProtocol

/// An image: an SF Symbol (drawn by the host from its bundled symbol set), an image in the
/// extension's bundle, or a file in an app group container. The host refuses anything else
/// (a remote URL, a path outside the bundle and its app groups), as a device does.
public struct Image: _PrimitiveView, Sendable, Hashable {
    var image: ArchiveImage
    var renderingMode: TemplateRenderingMode?

    /// An SF Symbol by name: `Image(systemName: "gift.fill")`.
    public init(systemName: String) { image = ArchiveImage(.system(systemName)) }

    /// An image in the extension's bundle (on iOS, its asset catalog): `Resources/NAME.png`.
    public init(_ name: String, bundle: Bundle? = nil) { image = ArchiveImage(.asset(name), label: name) }

    public init(_ name: String, bundle: Bundle? = nil, label: Text) {
        image = ArchiveImage(.asset(name), label: label.plainText)
    }

    public init(decorative name: String, bundle: Bundle? = nil) { image = ArchiveImage(.asset(name)) }

    /// A file the app wrote to an app group container: widgethost's stand-in for
    /// `Image(uiImage: UIImage(contentsOfFile: path)!)` (UIKit is not part of this SDK).
    public init(fileURL: URL) { image = ArchiveImage(.file(fileURL.standardizedFileURL.path)) }

    /// Lets the image grow or shrink to the frame it is given.
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image {
        var copy = self
        copy.image.resizable = true
        return copy
    }

    public func renderingMode(_ renderingMode: TemplateRenderingMode?) -> Image {
        var copy = self
        copy.renderingMode = renderingMode
        return copy
    }

    public func accessibilityLabel(_ label: Text) -> Image {
        var copy = self
        copy.image.label = label.plainText
        return copy
    }

    public enum ResizingMode: Sendable, Hashable { case tile, stretch }

    public enum TemplateRenderingMode: Sendable, Hashable { case template, original }

    /// How the image appears inside text.
    var textRun: ArchiveTextRun {
        switch image.source {
        case .system(let name): ArchiveTextRun(.symbol(name))
        case .asset(let name), .file(let name): ArchiveTextRun(.string(image.label ?? name))
        }
    }

    public func _archive(in context: _ArchiveContext) -> ViewNode { ViewNode(.image(image)) }
}
