import Foundation

/// Reads a `Decodable` value straight from a parsed `JSONValue`: the mirror of
/// `JSONValueEncoder`. `JSONValue.decode(as:)` used to write the value back to bytes and run
/// Foundation's `JSONDecoder` (`WireCoding.decoder`) over them; for the daemon's control params,
/// the extension's replies and the SDK's requests that was about a third of a warm reload's
/// instructions and 0.58 M of the 1.86 M a filled widget cost (issue 16, callgrind).
///
/// The result, and the refusal, are those of that round trip (`JSONValueDecoderTests` compares
/// the two on every documented example and on random mutations of them):
/// - numbers: an integer type takes any number whose decimal text is a whole number in its
///   range (`12`, `12.0`, `1e2`); `Double` any number; `Float` any that rounds to a finite,
///   non-zero `Float` (or is zero). One difference, deliberate: a number that does not fit is
///   `dataCorrupted` at its own coding path, "Parsed JSON number <300> does not fit in Int8.",
///   where this toolchain's Foundation says "The given data was not valid JSON." at the top;
/// - dates as `WireCoding.decoder` reads them (RFC 3339 strings, its error text);
/// - `URL`, `Data` and `Decimal` (no wire type has one) are left to Foundation, at their path;
/// - a `JSONValue` as parsing the text gives it back: a whole number that fits an `Int` is
///   `.integer`;
/// - the same `DecodingError` cases, types, coding paths and descriptions otherwise.
///
/// A `.number` that is NaN or infinite (no parsed value holds one) throws the `EncodingError`
/// the round trip's encoding threw, when it is read.
enum JSONValueDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try unbox(T.self, value, .root)
    }

    // MARK: Errors, worded as Foundation's JSONDecoder words them

    /// How Foundation names what it found instead.
    static func found(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .integer, .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    static func typeMismatch(_ type: Any.Type, _ value: JSONValue, _ path: CodingPath) -> DecodingError {
        DecodingError.typeMismatch(
            type, .init(codingPath: path.keys, debugDescription: "Expected to decode \(type) but found \(found(value)) instead."))
    }

    static func valueNotFound(_ type: Any.Type, _ path: CodingPath) -> DecodingError {
        DecodingError.valueNotFound(
            type, .init(codingPath: path.keys, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    static func doesNotFit(_ value: JSONValue, _ type: Any.Type, _ path: CodingPath) -> DecodingError {
        let text: String
        switch value {
        case .integer(let integer): text = String(integer)
        case .number(let number): text = number.description
        default: text = "\(value)"
        }
        return DecodingError.dataCorrupted(
            .init(codingPath: path.keys, debugDescription: "Parsed JSON number <\(text)> does not fit in \(type)."))
    }

    // MARK: Numbers

    /// 2^53: below it a whole `Double`'s shortest text is its integer's digits.
    private static let exactDoubleBound = 9_007_199_254_740_992.0

    static func integer<T: FixedWidthInteger>(_ value: JSONValue, as type: T.Type, path: @autoclosure () -> CodingPath) throws -> T {
        switch value {
        case .integer(let integer):
            if let result = T(exactly: integer) { return result }
        case .number(let number):
            try finite(number, path())
            if number.rounded(.towardZero) == number {
                if abs(number) < exactDoubleBound {
                    if let result = T(exactly: number) { return result }
                } else if let result = wholeDecimal(number.description, as: T.self) {
                    return result
                }
            }
        case .null:
            throw valueNotFound(T.self, path())
        default:
            throw typeMismatch(T.self, value, path())
        }
        throw doesNotFit(value, T.self, path())
    }

    static func double(_ value: JSONValue, path: @autoclosure () -> CodingPath) throws -> Double {
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number):
            try finite(number, path())
            return number
        case .null: throw valueNotFound(Double.self, path())
        default: throw typeMismatch(Double.self, value, path())
        }
    }

    /// A `Float` read from the number's text, as Foundation reads it: refused when it rounds to
    /// infinity, or to zero from a number that is not zero.
    static func float(_ value: JSONValue, path: @autoclosure () -> CodingPath) throws -> Float {
        switch value {
        case .integer(let integer): return Float(integer)
        case .number(let number):
            try finite(number, path())
            guard let float = Float(number.description), float.isFinite, float != 0 || number == 0 else {
                throw doesNotFit(value, Float.self, path())
            }
            return float
        case .null: throw valueNotFound(Float.self, path())
        default: throw typeMismatch(Float.self, value, path())
        }
    }

    private static func finite(_ number: Double, _ path: @autoclosure () -> CodingPath) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(
                number, .init(codingPath: path().keys, debugDescription: "\(number) is not a valid JSON number"))
        }
    }

    /// The integer a number's text (`1.8446744073709552e+19`, `9007199254740992.0`) spells
    /// exactly, if it is a whole number that fits `T`.
    static func wholeDecimal<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var negative = false
        var inFraction = false
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "-") where digits.isEmpty: negative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(byte - UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                var rest = String.UnicodeScalarView()
                while let next = utf8.next() { rest.append(Unicode.Scalar(next)) }
                guard let value = Int(String(rest)) else { return nil }
                exponent = value
            default: return nil
            }
        }
        exponent -= fractionDigits
        while exponent < 0, digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        guard exponent >= 0, exponent < 40 else { return nil }
        var result: T = 0
        for digit in digits + [UInt8](repeating: 0, count: exponent) {
            let (times, overflow) = result.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (sum, carry) =
                negative
                ? times.subtractingReportingOverflow(T(digit)) : times.addingReportingOverflow(T(digit))
            guard !carry else { return nil }
            result = sum
        }
        return result
    }

    /// A `JSONValue` as parsing its text gives it back: a whole number that fits an `Int` is
    /// an `.integer`. Unchanged values are returned as they are, without a copy.
    static func normalized(_ value: JSONValue, path: CodingPath) throws -> JSONValue {
        switch value {
        case .null, .bool, .integer, .string: return value
        case .number(let number):
            try finite(number, path)
            if number.rounded(.towardZero) == number {
                if abs(number) < exactDoubleBound { return .integer(Int(number)) }
                if let whole = wholeDecimal(number.description, as: Int.self) { return .integer(whole) }
            }
            return value
        case .array(let items):
            guard items.contains(where: needsNormalizing) else { return value }
            return .array(try items.map { try normalized($0, path: path) })
        case .object(let members):
            guard members.values.contains(where: needsNormalizing) else { return value }
            return .object(try members.mapValues { try normalized($0, path: path) })
        }
    }

    private static func needsNormalizing(_ value: JSONValue) -> Bool {
        switch value {
        case .null, .bool, .integer, .string: false
        case .number(let number): !number.isFinite || number.rounded(.towardZero) == number
        case .array(let items): items.contains(where: needsNormalizing)
        case .object(let members): members.values.contains(where: needsNormalizing)
        }
    }

    // MARK: Dates and the rest

    static func date(_ value: JSONValue, path: @autoclosure () -> CodingPath) throws -> Date {
        switch value {
        case .string(let text):
            guard let date = RFC3339.parse(text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: path().keys,
                        debugDescription: "\"\(text)\" is not an RFC 3339 date (e.g. 2026-02-15T08:00:00Z)"))
            }
            return date
        case .null: throw valueNotFound(Date.self, path())
        default: throw typeMismatch(String.self, value, path())
        }
    }

    /// A URL, `Data` or `Decimal`: Foundation's own reading of the value's text, its errors
    /// placed at this value's path.
    static func foundation<T: Decodable>(_ type: T.Type, _ value: JSONValue, path: CodingPath) throws -> T {
        do {
            return try WireCoding.decoder.decode(T.self, from: WireCoding.encode(value))
        } catch let error as DecodingError {
            throw path.prefixing(error)
        }
    }
}

/// Where a value sits, kept as a chain and turned into `[any CodingKey]` only when asked (for
/// an error, or by a type that reads its `codingPath`): most values are read without it.
indirect enum CodingPath: Sendable {
    case root
    case key(String, Int?, CodingPath)
    case index(Int, CodingPath)

    func appending(_ key: some CodingKey) -> CodingPath { .key(key.stringValue, key.intValue, self) }

    var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let string, let int, let parent):
                keys.append(PathKey(stringValue: string, intValue: int))
                node = parent
            case .index(let index, let parent):
                keys.append(PathKey(index: index))
                node = parent
            }
        }
    }

    /// An error thrown by a reader that started here, with this path before its own.
    func prefixing(_ error: DecodingError) -> DecodingError {
        func context(_ inner: DecodingError.Context) -> DecodingError.Context {
            .init(codingPath: keys + inner.codingPath, debugDescription: inner.debugDescription, underlyingError: inner.underlyingError)
        }
        switch error {
        case .typeMismatch(let type, let inner): return .typeMismatch(type, context(inner))
        case .valueNotFound(let type, let inner): return .valueNotFound(type, context(inner))
        case .keyNotFound(let key, let inner): return .keyNotFound(key, context(inner))
        case .dataCorrupted(let inner): return .dataCorrupted(context(inner))
        @unknown default: return error
        }
    }
}

/// A key of a coding path: an object's member, or an array's element as Foundation names it
/// ("Index 3").
struct PathKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String, intValue: Int?) {
        self.stringValue = stringValue
        self.intValue = intValue
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue: stringValue, intValue: nil) }
    init?(intValue: Int) { self.init(stringValue: "\(intValue)", intValue: intValue) }

    /// The key `superDecoder()` reads.
    static let superKey = PathKey(stringValue: "super", intValue: nil)
}
