import Foundation
import Preload

extension BakeWriter {
    /// What was baked.
    public struct Summary: Sendable, CustomStringConvertible {
        /// How many entries of one kind were baked.
        public struct KindCount: Sendable, Equatable {
            /// The kind's name (`BakeableAsset.bakedKind`: a texture in a GPU format counts as
            /// a `texture`).
            public var kind: String
            /// How many.
            public var count: Int
            /// How the summary names one and many (`BakeableAsset.bakedNouns`).
            public var singular: String, plural: String
        }

        /// The pack written.
        public var path: String
        /// Entries by kind, in the order the pack first holds each (textures first), pages
        /// made at load apart.
        public var kinds: [KindCount] = []
        /// Pages made at load time (packed sprite folders, rasterized fonts), stored as entries of
        /// their atlas or font.
        public var packedPages = 0
        /// The pack's size in bytes.
        public var bytes = 0
        /// Packs and other containers (`ContainerAsset`) baked as their entries (the container
        /// itself is not an asset of the baked pack).
        public var unpackedPacks: [String] = []
        /// With ``TextureBaking``: each texture's GPU format and quality, and the totals.
        public var gpu: GPUBakeTotals?
        /// With a ``BakeCache``: what it gave, what was encoded, what it refused.
        public var cache: BakeCacheReport?

        /// A summary of a pack at `path`, nothing counted yet.
        public init(path: String) { self.path = path }

        /// Every entry, pages included.
        public var entries: Int { kinds.reduce(packedPages) { $0 + $1.count } }

        /// How many entries of the kind `name` were baked (pages made at load apart).
        public func count(ofKind name: String) -> Int { kinds.first { $0.kind == name }?.count ?? 0 }

        /// Counts one entry of `type`.
        mutating func count(_ type: any BakeableAsset.Type) {
            if let known = kinds.firstIndex(where: { $0.kind == type.bakedKind }) {
                kinds[known].count += 1
            } else {
                let (singular, plural) = type.bakedNouns
                kinds.append(KindCount(kind: type.bakedKind, count: 1, singular: singular, plural: plural))
            }
        }

        /// Textures (`count(ofKind: "texture")`).
        @available(*, deprecated, message: "count(ofKind: \"texture\")")
        public var textures: Int { count(ofKind: "texture") }
        /// Atlases (`count(ofKind: "atlas")`).
        @available(*, deprecated, message: "count(ofKind: \"atlas\")")
        public var atlases: Int { count(ofKind: "atlas") }
        /// Data files (`count(ofKind: "data")`).
        @available(*, deprecated, message: "count(ofKind: \"data\")")
        public var dataFiles: Int { count(ofKind: "data") }
        /// Audio entries (`count(ofKind: "audio")`).
        @available(*, deprecated, message: "count(ofKind: \"audio\")")
        public var audio: Int { count(ofKind: "audio") }
        /// Bitmap fonts (`count(ofKind: "font")`).
        @available(*, deprecated, message: "count(ofKind: \"font\")")
        public var fonts: Int { count(ofKind: "font") }
        /// Tiled maps (`count(ofKind: "tilemap")`).
        @available(*, deprecated, message: "count(ofKind: \"tilemap\")")
        public var maps: Int { count(ofKind: "tilemap") }

        /// `16.4 KB`, `4.2 MB`: as the command's summaries show sizes.
        public static func shown(_ bytes: Int) -> String {
            bytes < 1000
                ? "\(bytes) B" : bytes < 1_000_000 ? String(format: "%.1f KB", Double(bytes) / 1e3) : String(format: "%.1f MB", Double(bytes) / 1e6)
        }

        /// `Baked 14 entries (12 textures, 1 atlas, 1 data file), 4.2 MB, into level1.bake`:
        /// textures always, then each other kind in the order the pack first holds it.
        public var description: String {
            let (singular, plural) = Texture.bakedNouns
            var parts = [counted(count(ofKind: Texture.bakedKind), singular, plural: plural)]
            for kind in kinds where kind.kind != Texture.bakedKind { parts.append(counted(kind.count, kind.singular, plural: kind.plural)) }
            if packedPages > 0 { parts.append(counted(packedPages, "page made at load", plural: "pages made at load")) }
            return "Baked \(counted(entries, "entry", plural: "entries")) (\(parts.joined(separator: ", "))), "
                + "\(Self.shown(bytes)), into \(path)"
        }
    }
}
