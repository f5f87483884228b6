import Preload
import PreloadConcurrency

/// Loads and unloads a manifest's groups on a coordinator, with reference counts, the way
/// libGDX's `AssetManager` counts references: a level unloads without taking what the next one
/// shares, and loading a group decodes nothing another loaded group already holds.
///
/// ```swift
/// import Preload
/// import PreloadAtlas
/// import PreloadManifest
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
/// let manifest = try AssetManifest(contentsOf: "assets/levels.json", registry: coordinator.registry)
/// let groups = AssetGroups(manifest: manifest, coordinator: coordinator)
/// try await groups.preload(["level1"])        // common (which level1 requires), then level1
/// try await groups.preload(["level2"])        // common stays: only level2's own assets load
/// try groups.unload("level1")                 // frees what only level1 held
/// ```
///
/// Loading works in the coordinator's three styles (a completion callback, async/await,
/// events), with the same reports and progress; a report covers the assets that batch
/// loaded, not those already held. A cancelled load records no group, and removes what it had
/// loaded that no group holds. ``status`` lists loaded groups, their assets and each
/// asset's reference count.
public final class AssetGroups: Sendable {
    /// One loaded group and what it holds.
    public struct GroupStatus: Sendable, Hashable {
        /// The group's name.
        public let name: String
        /// Whether it was asked for by name (otherwise a group that requires it loaded it).
        public let isExplicit: Bool
        /// The store names it holds, each with how many loaded groups hold it.
        public let assets: [String: Int]
    }

    /// The manifest whose groups load, as the coordinator loads it: a Phaser pack's entries
    /// whose plugin the coordinator has not registered (a sound without `AudioLoader`) are left
    /// out of their groups and listed in its ``AssetManifest/notices``
    /// (``ManifestNotice/Kind/pluginNotRegistered``), so that they do not fail the group.
    public let manifest: AssetManifest
    /// The coordinator that loads them, whose store keeps them.
    public let coordinator: PreloadCoordinator
    private let references = PreloadMutex(GroupReferences())

    /// Groups of `manifest`, loaded by `coordinator`.
    public init(manifest: AssetManifest, coordinator: PreloadCoordinator) {
        self.manifest = manifest.skippingEntries(withoutPluginsIn: coordinator.registry)
        self.coordinator = coordinator
    }

    /// Starts loading `groups` (and the groups they require) and calls `completion` with the
    /// report once they are recorded as loaded. Throws a ``ManifestError`` for an unknown group
    /// or a cycle, before anything loads.
    @discardableResult
    public func preload(
        _ groups: [String], options: PreloadOptions = PreloadOptions(), hooks: PreloadHooks = PreloadHooks(),
        completion: @escaping @Sendable (PreloadReport) -> Void
    ) throws -> PreloadBatch {
        let plan = try self.plan(groups)
        return coordinator.preload(plan.requests, options: options, hooks: recording(plan, then: hooks), completion: completion)
    }

    /// Loads `groups` (and the groups they require) and returns the report once they are
    /// recorded as loaded; see `PreloadCoordinator.preload(_:options:hooks:)`.
    @discardableResult
    public func preload(
        _ groups: [String], options: PreloadOptions = PreloadOptions(), hooks: PreloadHooks = PreloadHooks()
    ) async throws -> PreloadReport {
        let plan = try self.plan(groups)
        return try await coordinator.preload(plan.requests, options: options, hooks: recording(plan, then: hooks))
    }

    /// Starts loading `groups` and returns the batch with its events; the groups are recorded as
    /// loaded before `PreloadEvent.completed(_:)` is delivered.
    public func events(
        _ groups: [String], options: PreloadOptions = PreloadOptions()
    ) throws -> (
        batch: PreloadBatch, events: AsyncStream<PreloadEvent>
    ) {
        let plan = try self.plan(groups)
        let (batch, upstream) = coordinator.events(plan.requests, options: options)
        let (events, continuation) = AsyncStream.makeStream(of: PreloadEvent.self)
        let forwarding = Task { [self] in
            for await event in upstream {
                if case .completed(let report) = event { record(report, plan) }
                continuation.yield(event)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return (batch, events)
    }

    /// Unloads `group`: forgets it (and the groups it required that no other loaded group needs
    /// and nobody asked for by name) and removes from the store every asset no loaded group
    /// holds any more. Returns the store names removed (none for a group that is not loaded).
    /// Throws if the manifest has no such group (a typo is not a silent no-op, as it is not for
    /// ``preload(_:options:hooks:)``) or if a loaded group requires it.
    @discardableResult
    public func unload(_ group: String) throws -> [String] {
        guard manifest.group(named: group) != nil else {
            throw ManifestError(manifest: manifest.path, group: nil, "no group named '\(group)'")
        }
        let names = try references.withLock { references -> [String] in
            guard references.isLoaded(group) else { return [] }
            if let holder = references.held.keys.sorted().first(where: { manifest.group(named: $0)?.requires.contains(group) ?? false }) {
                throw ManifestError(manifest: manifest.path, group: group, "cannot be unloaded: '\(holder)' requires it and is loaded")
            }
            return references.release(group, manifest: manifest).names
        }
        for name in names { coordinator.assets.unload(named: name) }
        return names
    }

    /// The loaded groups, in the manifest's order, with their assets and reference counts.
    public var status: [GroupStatus] {
        references.withLock { references in
            manifest.groups.compactMap { group in
                guard let names = references.held[group.name] else { return nil }
                return GroupStatus(
                    name: group.name, isExplicit: references.explicit.contains(group.name),
                    assets: Dictionary(uniqueKeysWithValues: names.map { ($0, references.references(to: $0)) }))
            }
        }
    }

    /// Whether `group` is loaded.
    public func isLoaded(_ group: String) -> Bool { references.withLock { $0.isLoaded(group) } }

    // MARK: Loading

    /// What one load of groups asks for.
    private struct Plan: Sendable {
        let requested: [String]
        let groups: [AssetManifest.Group]
        let requests: [AssetRequest]
    }

    /// The groups to load (required ones first) and the requests of their assets that no loaded
    /// group holds yet.
    private func plan(_ names: [String]) throws -> Plan {
        let groups = try manifest.resolve(names)
        let requested = names.isEmpty ? manifest.groups.map(\.name) : names
        return references.withLock { references in
            let held = references.heldNames
            var seen = Set<String>()
            let requests = groups.filter { !references.isLoaded($0.name) }.flatMap(\.entries).map(\.request).filter { request in
                !held.contains(request.name) && seen.insert(request.name).inserted
            }
            return Plan(requested: requested, groups: groups, requests: requests)
        }
    }

    private func recording(_ plan: Plan, then hooks: PreloadHooks) -> PreloadHooks {
        var hooks = hooks
        let completion = hooks.onCompletion
        hooks.onCompletion = { [self] report in
            record(report, plan)
            completion?(report)
        }
        return hooks
    }

    /// Records the groups of a finished batch as loaded; a cancelled batch loaded none of them,
    /// and what it had loaded that no group holds leaves the store.
    private func record(_ report: PreloadReport, _ plan: Plan) {
        let orphans = references.withLock { references -> [String] in
            guard report.wasCancelled else {
                references.record(report, groups: plan.groups, requested: plan.requested, store: coordinator.assets)
                return []
            }
            let held = references.heldNames
            return report.allResults.filter { $0.outcome.isLoaded && !held.contains($0.request.name) }.map(\.request.name)
        }
        for name in orphans { coordinator.assets.unload(named: name) }
    }
}

extension AssetGroups.GroupStatus: CustomStringConvertible {
    /// One line, the names sorted, shared ones with how many groups hold them:
    /// `common (required): 3 assets: sprites/coin.png (2), sprites/hero.png (2), ui (2)`.
    public var description: String {
        let names = assets.keys.sorted().map { name in assets[name]! > 1 ? "\(name) (\(assets[name]!))" : name }
        return "\(name) (\(isExplicit ? "asked for" : "required")): \(names.count) asset\(names.count == 1 ? "" : "s")"
            + (names.isEmpty ? "" : ": " + names.joined(separator: ", "))
    }
}
