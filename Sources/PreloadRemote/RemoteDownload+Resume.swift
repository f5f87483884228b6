#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Resuming: a download cut short by an earlier fetch (or process) left its bytes in `partial/`
/// and its validator in the index; a new download of the URL takes them over, and its first
/// attempt asks for the rest with `Range` and `If-Range`.
extension RemoteDownload {
    /// Uses a kept partial download: its bytes are hashed again, and the next attempt asks for
    /// the rest.
    func adopt(_ partial: RemoteCacheIndex.Partial) {
        let path = cache.partialPath(partial.file)
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        // Locked while it is written: a download elsewhere (another batch, another process) has it.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return
        }
        guard let (hasher, size) = digest(ofTheRestOf: descriptor) else {
            close(descriptor)
            return
        }
        lseek(descriptor, 0, SEEK_END)
        state.withLock { state in
            state.descriptor = descriptor
            state.partialName = partial.file
            state.offset = size
            state.hasher = hasher
            state.etag = partial.etag
            state.totalSize = partial.totalSize
            state.cacheBytes = size
            state.attempts.furthest = size
            state.toldReceived += size
        }
        if file.expected.size == nil, let total = partial.totalSize { tellExpected(total) }
        session.receive(size)
    }
}
