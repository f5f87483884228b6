import Foundation

extension PreloadBatch {
    /// How many operations one fan-in step gathers. corelibs' `addDependency` scans the
    /// dependent's list linearly, so one completion operation depending on 20,000 loads would
    /// cost O(n²); a two-level fan-in keeps every list short.
    static let fanInWidth = 64

    /// Requests planned before the first operations are queued; later chunks double up to
    /// ``largestChunk``. Small first chunks put the workers to work almost at once instead of
    /// leaving them idle while thousands of files are found and claimed.
    static let firstChunk = 16
    static let largestChunk = 256

    /// Plans the requests chunk by chunk and queues each chunk's operations as soon as they
    /// exist, then queues the completion operation. Runs off the caller's thread; plugin code
    /// (claims, dependencies, operation construction) runs here, never under the batch's lock.
    func launch(registry: PluginRegistry, queue: OperationQueue, maxFileBytes: Int, memory: AssetMemory) {
        var plan = BatchPlanner(registry: registry, weighting: options.progressWeighting)
        plan.reserveCapacity(requests.count)
        var operations: [AssetOperation?] = []
        operations.reserveCapacity(requests.count)
        var madeThrough = 0  // the prefix of `plan.order` that already has operations
        store?.reserveCapacity(adding: requests.count)
        var next = requests.startIndex
        var chunk = Self.firstChunk
        while next < requests.endIndex {
            let end = min(requests.endIndex, next + chunk)
            if isCancelled {
                plan.skip(requests[next...])
                next = requests.endIndex
            } else {
                plan.plan(requests[next..<end])
                next = end
            }
            chunk = min(chunk * 2, Self.largestChunk)

            operations.append(contentsOf: repeatElement(nil, count: plan.nodes.count - operations.count))
            var fresh: [AssetOperation] = []
            for node in plan.order[madeThrough...] where plan.nodes[node].failure == nil {
                let operation = plan.makeOperation(node)
                operation.queuePriority = options.priority.queuePriority
                var dependencies: [AssetRequest: AssetOperation] = [:]
                for (request, dependencyNode) in plan.nodes[node].dependencies {
                    guard let dependency = operations[dependencyNode] else { continue }
                    operation.addDependency(dependency)
                    dependencies[request] = dependency
                }
                operation.attach(OperationWiring(
                    observer: self, slot: node, dependencies: dependencies,
                    dependencyFailures: plan.nodes[node].dependencyFailures,
                    toleratesFailedDependencies: plan.nodes[node].plugin.toleratesFailedDependencies, maxFileBytes: maxFileBytes,
                    memory: memory))
                operations[node] = operation
                fresh.append(operation)
            }
            madeThrough = plan.order.count
            install(plan, fresh)
            queue.addOperations(fresh, waitUntilFinished: false)
        }

        let (all, delay) = state.withLock { state -> ([AssetOperation], Duration?) in
            state.planning = ContinuousClock.now - startedAt
            state.phase = .running
            state.progress.isPlanned = true
            return (state.operations, deliverProgress(&state))
        }
        if let delay { scheduleTrailingProgress(after: delay) }
        let completion = BlockOperation { [self] in complete() }
        let gathering = Self.fanIn(all, into: completion)
        for operation in gathering + [completion] { operation.queuePriority = options.priority.queuePriority }
        queue.addOperations(gathering + [completion], waitUntilFinished: false)
        Self.rescheduleStaleReadiness(on: queue)
    }

    /// Works around a lost wakeup in corelibs' `OperationQueue` that left about one batch in
    /// 250,000 waiting forever with no thread running (found by `Fuzz/run coordinator`).
    /// `addOperations` reads an operation's `isReady` and stores it as the queue's cached
    /// readiness; when the operation's last dependency finishes between that read and that
    /// store, the store writes back a stale `false`. The queue's scheduling pass then sees the
    /// dependency count at zero, corrects the cache to `true`, but does not dispatch it: only a
    /// later pass would, and after the batch's last enqueue there may be none. This thread made
    /// every enqueue, so each correction it made precedes this call; one more scheduling pass
    /// (which setting the width does, even to the same value) dispatches whatever was left ready.
    static func rescheduleStaleReadiness(on queue: OperationQueue) {
        queue.maxConcurrentOperationCount = queue.maxConcurrentOperationCount
    }

    /// Takes in what the planner added, announces outcomes already known, and cancels the new
    /// operations (before they are queued) if the batch is cancelled or must fail fast.
    private func install(_ plan: BatchPlanner, _ fresh: [AssetOperation]) {
        let firstEntry = state.withLock { $0.entries.count }  // only this thread adds entries
        let entries = BatchState.entries(of: plan, from: firstEntry)  // built outside the lock
        let toCancel = state.withLock { state -> [AssetOperation] in
            let known = state.extend(from: plan, entries: entries)
            state.operations.append(contentsOf: fresh)
            var failed = false
            for entry in known {
                announce(entry, in: &state)
                if state.entries[entry].outcome?.error != nil { failed = true }
            }
            if failed && options.failurePolicy == .failFast && !state.cancelRequested {
                state.cancelRequested = true
                return state.operations
            }
            return state.cancelRequested ? fresh : []
        }
        for operation in toCancel { operation.cancel() }
    }

    /// Makes `completion` depend on every operation in `operations`, through intermediate
    /// no-op operations when there are many. Returns the intermediates, to be queued too.
    static func fanIn(_ operations: [Operation], into completion: Operation) -> [Operation] {
        guard operations.count > fanInWidth else {
            for operation in operations { completion.addDependency(operation) }
            return []
        }
        var gathering: [Operation] = []
        var start = 0
        while start < operations.count {
            let group = BlockOperation {}
            for operation in operations[start..<min(start + fanInWidth, operations.count)] {
                group.addDependency(operation)
            }
            gathering.append(group)
            start += fanInWidth
        }
        return gathering + fanIn(gathering, into: completion)
    }
}
