import PropertyBased
import Testing
import WidgetHostCore

/// `WidgetID`'s `<` is a strict total order on any ids, not only the host's `w<n>`: sorting,
/// the deadline heap and every "in id order" list depend on it.
@Suite("WidgetID order")
struct WidgetIDOrderTests {
    /// Ids of every shape: the host's, with leading zeros, past `Int`, other letters, digits
    /// first, signs, other numerals, empty, and canonically equivalent spellings of one text.
    static let id = Gen<String>.oneOf(
        Gen.int(in: 0...30).map { "w\($0)" },
        Gen.int(in: 0...Int.max).map { "w\($0)" },
        Gen.int(in: 0...30).map { "w0\($0)" },
        Gen<String?>.element(of: [
            "", "w", "W5", "w99999999999999999999", "w-1", "w+1", "w1x", "x5", "a10", "5", "10", "w٣", "w½",
            "caf\u{E9}", "cafe\u{301}", "w 1", "🎂",
        ] as [String]).map { $0! },
        Gen.letterOrNumber.string(of: 0...4)
    ).map { WidgetID($0) }

    @Test("Irreflexive, asymmetric, transitive and total on mixed ids; equal ids hash alike")
    func strictTotalOrder() async {
        await propertyCheck(count: 200, input: Self.id.array(of: 1...12)) { ids in
            for a in ids {
                #expect(!(a < a), "\(a) < \(a)")
                for b in ids {
                    let relations = [a < b, b < a, a == b].filter { $0 }.count
                    #expect(relations == 1, "exactly one of <, >, == for \(a) and \(b)")
                    if a == b { #expect(a.hashValue == b.hashValue, "\(a) and \(b) are equal but hash apart") }
                    for c in ids where a < b && b < c {
                        #expect(a < c, "\(a) < \(b) < \(c) but not \(a) < \(c)")
                    }
                }
            }
        }
    }

    @Test("Sorting gives one order whatever the order it starts from")
    func sortIsDeterministic() async {
        await propertyCheck(count: 100, input: Self.id.array(of: 0...20)) { ids in
            #expect(ids.sorted().map(\.rawValue) == ids.reversed().sorted().map(\.rawValue))
            #expect(ids.shuffled().sorted() == ids.sorted())
        }
    }

    @Test("The host's ids by number, then the rest by their text")
    func definedOrder() {
        let ids: [WidgetID] = ["b", "w10", "w99999999999999999999", "w2", "a10", "w05", "w5", "W1", "", "x5"]
        #expect(ids.sorted().map(\.rawValue) == ["w2", "w05", "w5", "w10", "", "W1", "a10", "b", "w99999999999999999999", "x5"])
    }
}
