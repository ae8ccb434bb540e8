import Foundation
import Testing
import WidgetHostProtocol

/// docs/openrpc.json and docs/openrpc-extension.json against the protocol module's types: the
/// same methods as `ControlMethod` and `ExtensionMethod`, and every example decoding as the
/// method's `wireTypes`. A method added without its entry in the document fails here; the
/// document's structure is validated against the OpenRPC meta-schema by
/// Tests/OpenRPC/validate_documents.py (`OpenRPCToolTests`).
@Suite("The OpenRPC documents match the protocol module")
struct OpenRPCDocumentTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    /// One method of a document, with its examples' params (by name) and results.
    struct Method {
        var name: String
        var object: [String: JSONValue]
        var params: [(name: String, required: Bool)]
        var examples: [(name: String, params: [String: JSONValue], result: JSONValue?)]
    }

    static func load(_ file: String) throws -> (document: [String: JSONValue], methods: [Method]) {
        let data = try Data(contentsOf: docs.appendingPathComponent(file))
        guard case .object(let document) = try WireCoding.decode(JSONValue.self, from: data),
            case .array(let methods)? = document["methods"]
        else { throw DocumentError("\(file): not an OpenRPC document with methods") }
        return (document, try methods.map { value in
            guard case .object(let object) = value, case .string(let name)? = object["name"] else {
                throw DocumentError("\(file): a method without a name (references are not used in these documents)")
            }
            var params: [(String, Bool)] = []
            if case .array(let list)? = object["params"] {
                for case .object(let param) in list {
                    guard case .string(let paramName)? = param["name"] else { throw DocumentError("\(name): a param without a name") }
                    params.append((paramName, param["required"] == .bool(true)))
                }
            }
            var examples: [(String, [String: JSONValue], JSONValue?)] = []
            if case .array(let list)? = object["examples"] {
                for case .object(let example) in list {
                    var given: [String: JSONValue] = [:]
                    if case .array(let exampleParams)? = example["params"] {
                        for case .object(let param) in exampleParams {
                            guard case .string(let paramName)? = param["name"] else { continue }
                            given[paramName] = param["value"] ?? .null
                        }
                    }
                    guard case .string(let exampleName)? = example["name"] else { throw DocumentError("\(name): an example without a name") }
                    let result: JSONValue? = if case .object(let result)? = example["result"] { result["value"] } else { nil }
                    examples.append((exampleName, given, result))
                }
            }
            return Method(name: name, object: object, params: params, examples: examples)
        })
    }

    private static func decodes(_ value: JSONValue, as type: any Decodable.Type) -> String? {
        do {
            _ = try value.decode(as: type)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Checks one method's params and examples against its wire types; returns the problems.
    static func problems(_ method: Method, _ types: MethodWireTypes) -> [String] {
        var problems: [String] = []
        if method.object["paramStructure"] != "by-name" { problems.append("\(method.name): paramStructure is not \"by-name\"") }
        if method.examples.isEmpty { problems.append("\(method.name): no example") }
        for example in method.examples {
            let where_ = "\(method.name), example \"\(example.name)\""
            switch types.params {
            case .none:
                if !example.params.isEmpty { problems.append("\(where_): gives params to a method that reads none") }
            case .optional(let type), .required(let type):
                if let error = decodes(.object(example.params), as: type) {
                    problems.append("\(where_): params do not decode as \(type): \(error)")
                }
                // A param the document calls required must be one the type cannot do without, and
                // an optional one one it can.
                for param in method.params where example.params[param.name] != nil {
                    var without = example.params
                    without[param.name] = nil
                    let fails = decodes(.object(without), as: type) != nil
                    if fails != param.required {
                        problems.append(
                            "\(where_): \"\(param.name)\" is \(param.required ? "required" : "optional") in the document, "
                                + "but \(type) \(fails ? "needs" : "does without") it")
                    }
                }
            }
            if let result = example.result {
                if let error = decodes(result, as: types.result) {
                    problems.append("\(where_): result does not decode as \(types.result): \(error)")
                }
            } else {
                problems.append("\(where_): no result")
            }
        }
        if case .none = types.params, !method.params.isEmpty {
            problems.append("\(method.name): the document lists params the method does not read")
        }
        return problems
    }

    @Test("docs/openrpc.json names exactly the control channel's methods")
    func controlMethods() throws {
        let names = try Self.load("openrpc.json").methods.map(\.name)
        let known = ControlMethod.allCases.map(\.rawValue)
        let missing = known.filter { !names.contains($0) }
        let unknown = names.filter { ControlMethod(rawValue: $0) == nil }
        #expect(missing.isEmpty, "docs/openrpc.json lacks \(missing): describe each (params, result, errors, an example)")
        #expect(unknown.isEmpty, "docs/openrpc.json describes \(unknown), which ControlMethod does not have")
        #expect(Set(names).count == names.count, "a method is described twice")
    }

    @Test("docs/openrpc-extension.json names exactly the extension channel's methods")
    func extensionMethods() throws {
        let names = try Self.load("openrpc-extension.json").methods.map(\.name)
        let known = ExtensionMethod.allCases.map(\.rawValue)
        let missing = known.filter { !names.contains($0) }
        let unknown = names.filter { ExtensionMethod(rawValue: $0) == nil }
        #expect(missing.isEmpty, "docs/openrpc-extension.json lacks \(missing)")
        #expect(unknown.isEmpty, "docs/openrpc-extension.json describes \(unknown), which ExtensionMethod does not have")
    }

    @Test("Every control example's params and result decode as the method's Swift types; required params are required")
    func controlExamples() throws {
        for method in try Self.load("openrpc.json").methods {
            guard let control = ControlMethod(rawValue: method.name) else { continue }
            let problems = Self.problems(method, control.wireTypes)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }

    @Test("Every extension example's params and result decode as the method's Swift types")
    func extensionExamples() throws {
        for method in try Self.load("openrpc-extension.json").methods {
            guard let call = ExtensionMethod(rawValue: method.name) else { continue }
            let problems = Self.problems(method, call.wireTypes)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }

    @Test("x-admin marks exactly the methods that need an admin peer")
    func adminMethods() throws {
        for method in try Self.load("openrpc.json").methods {
            guard let control = ControlMethod(rawValue: method.name) else { continue }
            #expect((method.object["x-admin"] == .bool(true)) == control.requiresAdmin, "\(method.name): x-admin")
        }
    }

    @Test("subscribe's event notifications: the method and its examples decode as HostNotice")
    func eventNotification() throws {
        let subscribe = try #require(try Self.load("openrpc.json").methods.first { $0.name == ControlMethod.subscribe.rawValue })
        guard case .object(let notification)? = subscribe.object["x-notification"],
            case .array(let examples)? = notification["examples"]
        else {
            Issue.record("subscribe has no x-notification with examples")
            return
        }
        #expect(notification["method"] == .string(ControlMethod.eventNotification))
        #expect(!examples.isEmpty)
        for example in examples {
            #expect(Self.decodes(example, as: ControlMethod.eventNotificationType) == nil, "\(example)")
        }
    }

    @Test("The extension document's info.version is protocolVersion")
    func extensionVersion() throws {
        guard case .object(let info)? = try Self.load("openrpc-extension.json").document["info"] else {
            Issue.record("no info")
            return
        }
        #expect(info["version"] == .string(String(protocolVersion)), "bump docs/openrpc-extension.json with protocolVersion")
    }

    @Test("The checks catch a document that drifted: a missing method, a wrong example, a wrong required flag")
    func checksCanFail() throws {
        let method = try #require(try Self.load("openrpc.json").methods.first { $0.name == "addWidget" })
        #expect(Self.problems(method, ControlMethod.addWidget.wireTypes).isEmpty)
        var wrongResult = method
        wrongResult.examples[0].result = ["widget": "w1"]
        #expect(Self.problems(wrongResult, ControlMethod.addWidget.wireTypes).contains { $0.contains("result does not decode") })
        var wrongParams = method
        wrongParams.examples[0].params["family"] = "huge"
        #expect(Self.problems(wrongParams, ControlMethod.addWidget.wireTypes).contains { $0.contains("params do not decode") })
        var wrongFlag = method
        wrongFlag.params = wrongFlag.params.map { ($0.name, $0.name == "app" ? true : $0.required) }
        wrongFlag.examples[0].params["app"] = "com.birthdayreminders"
        #expect(Self.problems(wrongFlag, ControlMethod.addWidget.wireTypes).contains { $0.contains("\"app\" is required in the document") })
        #expect(!Self.problems(method, ControlMethod.status.wireTypes).isEmpty, "addWidget's example passed as status's")
    }
}

struct DocumentError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
