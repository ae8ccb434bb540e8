import WidgetHostProtocol

extension WidgetRecord {
    /// Decoding gives every copy of a value its own storage, where the running host shares
    /// one: the entry shown is a copy of a timeline entry (its content dictionary shared),
    /// and every widget of an extension names it with the catalog's strings. Restoring
    /// 10,000 records shares them again, as adding them did (docs/benchmarks.md, figure 4):
    /// the shown entry takes the storage of the timeline entry it equals, and the names
    /// take the storage of the first record that used them. Values do not change.
    mutating func shareStorage(names: inout Set<String>) {
        if let shown = shown?.entry, let same = timeline?.entries.first(where: { $0 == shown }) {
            self.shown?.entry = same
        }
        info.kind = names.insert(info.kind).memberAfterInsert
        info.app = names.insert(info.app).memberAfterInsert
        info.extension = names.insert(info.extension).memberAfterInsert
    }
}
