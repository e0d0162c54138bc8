import CMalloc

/// How the long-running commands ask glibc's malloc to give memory back.
///
/// By default glibc serves a block of 128 KiB or more with its own `mmap` and unmaps it
/// when freed, but each time such a block is freed it raises that threshold to the
/// block's size (up to 32 MiB). After one 16 MiB WebSocket message, every later large
/// message came from the heap, where freed memory stays resident: five of them left the
/// service 48 MiB larger for good. A threshold set explicitly stays where it is, so a
/// large message's memory goes back to the system as soon as it is read.
public enum MemoryPolicy {
    /// Blocks from this size on get their own mapping, returned on free.
    public static let mappedFromBytes: Int32 = 256 * 1024

    /// Sets the threshold; once, before the service starts.
    public static func apply() {
        _ = mallopt(M_MMAP_THRESHOLD, mappedFromBytes)
    }

    /// What the allocator may keep free before ``releaseFreedMemory()`` gives it back.
    public static let keptFreeBytes = 4 << 20

    /// Gives back what the allocator holds free beyond ``keptFreeBytes``, in every arena.
    /// A large message is decoded into many small blocks (below the threshold), on whichever
    /// of Swift's threads ran it, and freed into that thread's arena, which glibc shrinks
    /// only from its top: with the machine busy, five 15 MiB messages still left the service
    /// 17-29 MiB larger. The runner calls it after each turn; with little free it only counts.
    public static func releaseFreedMemory() {
        if Int(mallinfo2().fordblks) > keptFreeBytes { _ = malloc_trim(0) }
    }
}
