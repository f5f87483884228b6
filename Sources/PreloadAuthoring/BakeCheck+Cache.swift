import Preload

/// `bake check` with the bake cache: which stale GPU textures a re-bake would take from it.
///
/// A pack records its sources' sizes and CRC-32s, not the bake cache keys of its entries nor the
/// GPU settings it was baked with (the `--quality`, say, is in no record), so a key cannot be
/// computed from the pack alone. Given the settings (`baking`), each stale GPU texture's source
/// is loaded again, as a bake loads it, keyed (``BakeWriter/TextureBaking/cacheKey(for:)``, the
/// bake's own key) and looked up in the cache, verified as a bake verifies it.
extension BakeCheck {
    /// Marks each stale GPU texture entry whose texture, loaded again from its source with
    /// `coordinator`, `cache` holds under its key with `baking`'s settings: a re-bake encodes
    /// nothing for it (a source saved again with the same pixels, or one already baked elsewhere
    /// into a shared cache). The entry stays stale (the pack is not what its sources make); its
    /// line says so, and ``staleInCache`` counts it. A source that fails to load is left as it was.
    public mutating func lookUpStale(in cache: BakeCache, baking: BakeWriter.TextureBaking, coordinator: PreloadCoordinator) async {
        guard !staleGPUTextures.isEmpty else { return }
        let requests = staleGPUTextures.sorted { $0.key < $1.key }.map { AssetRequest(path: $0.value, name: $0.key) }
        guard let report = try? await coordinator.preload(requests, options: PreloadOptions(storesAssets: false)) else { return }
        var cached = Set<String>()
        for result in report.allResults where staleGPUTextures[result.request.name] != nil {
            guard let texture = result.outcome.asset as? Texture, let key = try? baking.cacheKey(for: texture) else { continue }
            if await cache.lookup(key, name: result.request.name) != nil { cached.insert(result.request.name) }
        }
        var marked: [String: String] = [:]
        for name in cached {
            let line = "stale   \(name) (\(SourceDigests.file(of: staleGPUTextures[name]!)) changed)"
            marked[line] = line.dropLast() + "; in the bake cache: a re-bake encodes nothing)"
        }
        problems = problems.map { marked[$0] ?? $0 }
        staleInCache = cached.count
    }
}
