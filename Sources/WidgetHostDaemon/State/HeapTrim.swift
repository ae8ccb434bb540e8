import Foundation

/// glibc keeps the memory a program frees for its next allocations; after the state store's
/// load (one JSON text and its decoding temporaries per record, interleaved with the records
/// the host keeps) most of it is free but stays counted in `RssAnon`. `malloc_trim(0)` gives
/// free pages back to the kernel, from the top of the heap and from inside it.
enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// Looked up at run time: Swift's Glibc module does not declare it (`malloc.h`), and a C
    /// library without it (musl) simply keeps its memory.
    private static let trim: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: Trim.self)
    }

    static func returnFreeMemory() {
        _ = trim?(0)
    }
}
