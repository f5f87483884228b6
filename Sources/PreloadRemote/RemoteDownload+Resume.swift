import Preload

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Resuming: a download cut short by an earlier fetch (or process) left its bytes in `partial/`
/// and its response's validators in the index; a new download of the URL takes them over, and
/// its first attempt asks for the rest with `Range` and `If-Range` (``ResumeValidators``), or
/// with `Range` alone when the file's SHA-256 was promised. With neither, the bytes are dropped
/// and the transfer says why it started over.
extension RemoteDownload {
    /// Uses a kept partial download: its bytes are hashed again, and the next attempt asks for
    /// the rest. Bytes it cannot resume (no validator and no promised SHA-256, or a promise of
    /// another file) are dropped, and the restart noted.
    func adopt(_ partial: RemoteCacheIndex.Partial) {
        let path = cache.partialPath(partial.file)
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        // Locked while it is written: a download elsewhere (another batch, another process) has it.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return
        }
        let promised = file.expected.sha256
        let drop: AssetTransfer.Restart? =
            if let kept = partial.sha256, let promised, kept != promised {
                .changed  // bytes of the file as another promise knew it
            } else if partial.validators.ifRange == nil && promised == nil {
                .noValidator
            } else {
                nil
            }
        if let drop {
            close(descriptor)
            cache.discardPartial(url: file.url, name: partial.file)
            state.withLock { $0.attempts.restarted(drop) }
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
            state.validators = partial.validators
            state.totalSize = partial.totalSize
            state.cacheBytes = size
            state.attempts.furthest = size
            state.toldReceived += size
        }
        if file.expected.size == nil, let total = partial.totalSize { tellExpected(total) }
        session.receive(size)
    }
}

extension RemoteDownloadState {
    /// Adds to `headers` the request for the rest of the bytes held: `Range` with `If-Range`
    /// (the response's strong validator), or `Range` alone when the SHA-256 was promised. With
    /// neither, nothing is asked: the bytes are dropped (their count returned, they come again)
    /// and the restart noted, since a range of a file that changed would make a mixed one.
    mutating func askForTheRest(_ headers: inout [String: String]) -> Int64 {
        guard offset > 0 else { return 0 }
        if let ifRange = validators.ifRange {
            headers["Range"] = "bytes=\(offset)-"
            headers["If-Range"] = ifRange
        } else if hashChecksResume {
            headers["Range"] = "bytes=\(offset)-"
        } else {
            attempts.restarted(.noValidator)
            let dropped = offset
            truncate()
            return dropped
        }
        return 0
    }
}
