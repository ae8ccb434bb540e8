/// Reads rendered HTML as a browser's tokenizer would and lists every element or attribute
/// that the renderer does not write itself: if an archive string broke out of its text or
/// its quoted attribute, it would show up here as a tag or an attribute (`onerror`).
enum MarkupCheck {
    static let elements: Set<String> = [
        "div", "span", "svg", "path", "circle", "rect", "line", "polyline", "polygon", "ellipse", "g", "pre", "img", "br",
        "figure", "figcaption", "section", "h1", "h2", "p",
    ]
    static let attributes: Set<String> = [
        "class", "style", "title", "viewbox", "width", "height", "fill", "stroke", "stroke-width", "stroke-linecap",
        "stroke-linejoin", "stroke-dasharray", "role", "aria-label", "aria-hidden", "d", "cx", "cy", "r", "x", "y", "rx",
        "ry", "x1", "x2", "y1", "y2", "points", "transform", "src", "alt",
    ]

    static func violations(_ html: String) -> [String] {
        var found: [String] = []
        let bytes = Array(html.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
            let nameStart = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            if !elements.contains(name) { found.append("element <\(name)>") }
            // Attributes until '>': name, '=', a double-quoted value.
            while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
                if bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "/") {
                    index += 1
                    continue
                }
                let attributeStart = index
                while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
                let attribute = String(decoding: bytes[attributeStart..<index], as: UTF8.self).lowercased()
                if attribute.isEmpty {
                    found.append("stray byte \(bytes[index]) in <\(name)>")
                    index += 1
                    continue
                }
                if !attributes.contains(attribute) && !attribute.hasPrefix("data-wh-") {
                    found.append("attribute \(attribute) on <\(name)>")
                }
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        found.append("unquoted value of \(attribute)")
                        continue
                    }
                    index += 1
                    let valueStart = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
                    let value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    if attribute == "src", !value.hasPrefix("data:image/") { found.append("src \(value)") }
                    if value.contains("<") || value.contains(">") { found.append("raw < or > in \(attribute)") }
                    index += 1
                }
            }
            index += 1
        }
        return found
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
    }
}
