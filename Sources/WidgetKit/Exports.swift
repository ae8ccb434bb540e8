// Apple's `import WidgetKit` makes Foundation visible too (its Objective-C module
// re-exports it), so provider code that uses `Date` and `Calendar` after importing only
// WidgetKit must keep compiling here.
@_exported import Foundation
import WidgetHostProtocol

/// The sizes and shapes a widget can take. A typealias rather than a re-export, so that
/// `import WidgetKit` gives an extension WidgetKit's names and nothing of the wire protocol.
public typealias WidgetFamily = WidgetHostProtocol.WidgetFamily
