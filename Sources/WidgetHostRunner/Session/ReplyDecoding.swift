import Foundation
import WidgetHostCore
import WidgetHostProtocol

/// A reply's result as the core takes it: `timeline/get` → a timeline (with the size of its
/// line, which the core checks against `max_timeline_bytes`), `placeholder/get` and
/// `snapshot/get` → one entry, `intent/perform`, `intent/options`, `control/value` → theirs.
enum ReplyDecoding {
    static func reply(
        to method: ExtensionMethod, result: JSONValue, byteCount: Int
    ) -> Result<ExtensionReply, ExtensionFailure> {
        do {
            switch method {
            case .timeline: return .success(.timeline(try result.decode(as: TimelinePayload.self), byteCount: byteCount))
            case .placeholder, .snapshot: return .success(.entry(try result.decode(as: TimelineEntryPayload.self)))
            case .intentPerform: return .success(.performed(try result.decode(as: IntentPerformResult.self)))
            case .intentOptions: return .success(.options(try result.decode(as: IntentOptionsResult.self)))
            case .controlValue: return .success(.controlValue(try result.decode(as: ControlValueResult.self)))
            case .initialize: return .failure(.protocolError("initialize is answered through the session, not as a reply"))
            case .activityRender:
                // The core decodes and checks it (ActivityViewValidation): an archive is untrusted input.
                return .success(.activityViews(result, byteCount: byteCount))
            }
        } catch {
            return .failure(
                .protocolError("\(method.rawValue) reply does not match the protocol: \(DecodingFailure.describe(error))"))
        }
    }

    static func initialize(_ result: JSONValue) -> Result<InitializeResult, ExtensionFailure> {
        do {
            return .success(try result.decode(as: InitializeResult.self))
        } catch {
            return .failure(
                .protocolError("initialize reply does not match the protocol: \(DecodingFailure.describe(error))"))
        }
    }
}

/// A decoding error in one line: which field and what was wrong. The one wording for an
/// extension's replies and the control socket's parameters.
public enum DecodingFailure {
    /// `root` names the top-level value (`the reply`, or `params` for a request's).
    public static func describe(_ error: any Error, root: String = "the reply") -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? root : String(keys.drop(while: { $0 == "." }))
        }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "\(path(context)) is missing \"\(key.stringValue)\""
        case .typeMismatch(let type, let context):
            return "\(path(context)) should be \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context)) is null, expected \(type)"
        case .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
