import WidgetHostProtocol

/// The key of a localized string, with SwiftUI's interpolations: strings and values,
/// `Image`, `Text`, dates with a style, and format specifiers (`"\(x, specifier: "%.1f")"`).
public struct LocalizedStringKey: Sendable, Hashable, ExpressibleByStringInterpolation {
    let runs: [ArchiveTextRun]

    public init(_ value: String) { runs = [ArchiveTextRun(.string(value))] }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: StringInterpolation) { runs = stringInterpolation.runs }

    public struct StringInterpolation: StringInterpolationProtocol {
        var runs: [ArchiveTextRun] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { appendString(literal) }

        public mutating func appendInterpolation(_ string: String) { appendString(string) }

        public mutating func appendInterpolation<T>(_ value: T) { appendString(String(describing: value)) }

        public mutating func appendInterpolation<T: CVarArg>(_ value: T, specifier: String) {
            appendString(String(format: specifier, value))
        }

        public mutating func appendInterpolation(_ image: Image) { runs.append(image.textRun) }

        public mutating func appendInterpolation(_ text: Text) { runs += text.runs }

        public mutating func appendInterpolation(_ date: Date, style: Text.DateStyle) {
            runs.append(ArchiveTextRun(.date(date, style: style.style)))
        }

        public mutating func appendInterpolation<F: FormatStyle>(_ input: F.FormatInput, format: F)
        where F.FormatInput: Equatable, F.FormatOutput == String {
            appendString(format.format(input))
        }

        private mutating func appendString(_ string: String) {
            guard !string.isEmpty else { return }
            if let last = runs.last, case .string(let previous) = last.content, last == ArchiveTextRun(last.content) {
                runs[runs.count - 1] = ArchiveTextRun(.string(previous + string))
            } else {
                runs.append(ArchiveTextRun(.string(string)))
            }
        }
    }
}
