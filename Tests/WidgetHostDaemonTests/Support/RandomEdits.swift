import SeededRandom

/// `line` after a number of random edits drawn from `edits`, each a byte deleted, replaced or
/// inserted (the byte drawn from `alphabet`): the plain-request readers' mutation tests feed
/// the result to the fast reader and to the normal one and compare.
func randomlyEdited(
    _ line: [UInt8], edits: ClosedRange<Int> = 1...3, alphabet: [UInt8], using random: inout SeededGenerator
) -> [UInt8] {
    var line = line
    for _ in 0..<Int.random(in: edits, using: &random) {
        let at = Int.random(in: 0...line.count, using: &random)
        let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
        switch Int.random(in: 0..<3, using: &random) {
        case 0 where at < line.count: line.remove(at: at)
        case 1 where at < line.count: line[at] = byte
        default: line.insert(byte, at: at)
        }
    }
    return line
}
