// Apple's `import SwiftUI` makes Foundation visible too, so view code that formats a `Date`
// after importing only SwiftUI keeps compiling here.
@_exported import Foundation
