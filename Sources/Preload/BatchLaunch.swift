import Foundation

extension PreloadBatch {
    /// How many operations one fan-in step gathers. corelibs' `addDependency` scans the
    /// dependent's list linearly, so one completion operation depending on 20,000 loads would
    /// cost O(n²); a two-level fan-in keeps every list short.
    static let fanInWidth = 64

    /// Plans `requests`, makes and wires the operations, and queues them with the completion
    /// operation. Runs off the caller's thread; plugin code (claims, dependencies, operation
    /// construction) runs here, never under the batch's lock.
    func launch(registry: PluginRegistry, queue: OperationQueue, maxFileBytes: Int) {
        var plan = BatchPlanner(registry: registry, weighting: options.progressWeighting)
        if isCancelled { plan.skip(requests) } else { plan.plan(requests) }

        var operations = [AssetOperation?](repeating: nil, count: plan.nodes.count)
        for node in plan.order where plan.nodes[node].failure == nil {
            operations[node] = plan.nodes[node].plugin.makeOperation(for: plan.nodes[node].planned)
        }
        var queued: [AssetOperation] = []
        queued.reserveCapacity(plan.order.count)
        for node in plan.order {
            guard let operation = operations[node] else { continue }
            var dependencies: [AssetRequest: AssetOperation] = [:]
            for (request, dependencyNode) in plan.nodes[node].dependencies {
                guard let dependency = operations[dependencyNode] else { continue }
                operation.addDependency(dependency)
                dependencies[request] = dependency
            }
            operation.attach(OperationWiring(observer: self, slot: node, dependencies: dependencies, maxFileBytes: maxFileBytes))
            queued.append(operation)
        }

        let plugins = plan.nodes.map { Optional($0.planned.plugin) }
        let cancelNow = state.withLock { state -> Bool in
            let failed = state.install(plan, plugins: plugins, interval: options.progressInterval)
            state.operations = queued
            for entry in failed { delivery.asset(state.entries[entry].result()) }
            if !failed.isEmpty && options.failurePolicy == .failFast { state.cancelRequested = true }
            return state.cancelRequested
        }
        if cancelNow { for operation in queued { operation.cancel() } }

        let completion = BlockOperation { [self] in complete() }
        let gathering = Self.fanIn(queued, into: completion)
        queue.addOperations(queued + gathering + [completion], waitUntilFinished: false)
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
