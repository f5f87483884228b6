import PreloadConcurrency

/// What `stat` said of each container (a pack) the first time one batch's planning found an
/// entry in it: its other entries are located without looking at the disk again. Shared by the
/// batch's planning threads; a later batch looks afresh (a pack replaced by rename between
/// batches is seen as the new file).
package final class ContainerFacts: Sendable {
    private let seen = PreloadMutex<[String: FileFacts]>([:])

    package init() {}

    /// What `stat` said of the container at `path`, if it was seen.
    func facts(of path: String) -> FileFacts? {
        seen.withLock { $0[path] }
    }

    /// Remembers what `stat` said of the container at `path`.
    func remember(_ facts: FileFacts, of path: String) {
        seen.withLock { $0[path] = facts }
    }
}
