import Preload

/// The layout of a baked pack (`.bake`), version 2 (version 1 packs still read): what
/// `preload bake` writes and ``BakedPackLoader`` reads. All numbers are little-endian. `docs/bake-format.md` is the same
/// description for another tool's author.
///
/// ```
/// [header, 64 bytes] [entry data, each aligned] [index: records, dependency table, strings]
/// ```
public enum BakedFormat {
    /// The first 8 bytes: `\x89PBAKE\r\n`. The high byte and the line ending catch a file that
    /// went through a text transfer, as PNG's signature does.
    public static let magic: [UInt8] = [0x89, 0x50, 0x42, 0x41, 0x4B, 0x45, 0x0D, 0x0A]
    /// The version this library writes.
    public static let version: UInt32 = 2
    /// The versions this library reads: 1 (kinds numbered by a fixed table) and 2 (kinds named by
    /// the pack's own table).
    public static let readableVersions: ClosedRange<UInt32> = 1...2
    /// The kind names a version 1 pack's kind numbers 1 to 7 stand for: its implicit table of
    /// kinds (version 2 packs carry their own).
    public static let versionOneKinds = ["texture", "atlas", "data", "audio", "font", "tilemap", "gpuTexture"]
    /// Bytes in the header.
    public static let headerSize = 64
    /// Bytes in one index record.
    public static let recordSize = 64
    /// Every entry's data starts at a multiple of this: a cache line, which covers 16- and
    /// 32-byte SIMD loads and the copy alignment GPU upload paths ask for.
    public static let entryAlignment = 64
    /// Entries of ``pageAlignedSize`` bytes or more start on a 4 KiB page instead, so that an
    /// engine can map or read them directly (`mmap` offsets, `O_DIRECT`).
    public static let pageAlignment = 4096
    /// See ``pageAlignment``.
    public static let pageAlignedSize = 65536

    /// Header flags.
    public struct Flags: OptionSet, Sendable {
        /// The flags as stored, bit by bit.
        public let rawValue: UInt32
        /// Flags from their stored bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Textures were baked with premultiplied alpha (`preload bake --premultiply`).
        public static let premultipliedAlpha = Flags(rawValue: 1)
        /// Every flag this version knows: a reader refuses others.
        public static let all: Flags = [.premultipliedAlpha]
    }

    /// The header, as read or to write.
    public struct Header: Equatable, Sendable {
        /// What holds for the whole pack.
        public var flags: Flags
        /// The whole file's length: a cut file is told apart from a damaged one.
        public var fileLength: UInt64
        /// Where the index starts (after every entry's data, 8-byte aligned).
        public var indexOffset: UInt64
        /// The index's length in bytes: records, dependency table, strings.
        public var indexLength: UInt64
        /// How many 64-byte records the index starts with.
        public var entryCount: UInt32
        /// How many `UInt32`s the index's dependency table holds.
        public var dependencyCount: UInt32
        /// CRC-32 of the index's bytes.
        public var indexChecksum: UInt32
        /// Where, in the index's strings, the pack's metadata is (``BakedMetadata``): version 2, a
        /// JSON object of the table of kinds and the warnings; version 1, the warnings alone (empty:
        /// no entry has any).
        public var metadata: Range<UInt32>
        /// The format's version: ``BakedFormat/version`` for a header to write.
        public var version: UInt32

        /// Where the warnings are (version 1's name for ``metadata``).
        @available(*, deprecated, renamed: "metadata")
        public var warnings: Range<UInt32> {
            get { metadata }
            set { metadata = newValue }
        }

        /// A header with these fields (the magic is the format's own).
        public init(
            flags: Flags, fileLength: UInt64, indexOffset: UInt64, indexLength: UInt64, entryCount: UInt32,
            dependencyCount: UInt32, indexChecksum: UInt32, metadata: Range<UInt32> = 0..<0, version: UInt32 = BakedFormat.version
        ) {
            self.metadata = metadata
            self.version = version
            self.flags = flags
            self.fileLength = fileLength
            self.indexOffset = indexOffset
            self.indexLength = indexLength
            self.entryCount = entryCount
            self.dependencyCount = dependencyCount
            self.indexChecksum = indexChecksum
        }

        /// The 64 header bytes; the last four are the CRC-32 of the first 60.
        public func encoded(checksum: ([UInt8]) -> UInt32) -> [UInt8] {
            var bytes = BakedFormat.magic
            bytes.appendLittleEndian(version)
            bytes.appendLittleEndian(flags.rawValue)
            bytes.appendLittleEndian(fileLength)
            bytes.appendLittleEndian(indexOffset)
            bytes.appendLittleEndian(indexLength)
            bytes.appendLittleEndian(entryCount)
            bytes.appendLittleEndian(indexChecksum)
            bytes.appendLittleEndian(dependencyCount)
            bytes.appendLittleEndian(metadata.lowerBound)
            bytes.appendLittleEndian(UInt32(metadata.count))
            bytes.appendLittleEndian(checksum(bytes))
            return bytes
        }
    }

    /// One index record: where an entry's data is and what it is.
    public struct Record: Equatable, Sendable {
        /// Where the entry's data starts in the file (aligned, see ``BakedFormat/entryAlignment``).
        public var dataOffset: UInt64
        /// The data's length in bytes.
        public var dataLength: UInt64
        /// The size of the file the entry was baked from (a pack entry's: its pack's).
        public var sourceSize: UInt64
        /// CRC-32 of the entry's data.
        public var dataChecksum: UInt32
        /// CRC-32 of the source file's bytes.
        public var sourceChecksum: UInt32
        /// Where the name (the store name) and the source path are in the index's strings.
        public var name: Range<UInt32>
        /// Where the source's path is in the index's strings.
        public var sourcePath: Range<UInt32>
        /// A texture's width in pixels (0 for other kinds): the kind's to use.
        public var width: UInt32
        /// A texture's height in pixels (0 for other kinds): the kind's to use.
        public var height: UInt32
        /// Where this entry's dependencies are in the index's dependency table.
        public var dependencies: Range<UInt32>
        /// What the entry holds: its kind's number in the pack's table of kinds, from 1
        /// (``BakedIndex/Entry/kind`` is its name).
        public var kind: UInt8
        /// The record's flags.
        public var bits: Bits

        /// The record's flag byte.
        public struct Bits: OptionSet, Sendable, Equatable {
            /// The bits as stored.
            public let rawValue: UInt8
            /// Flags from their stored bits.
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// The two bits that belong to the entry's kind (`BakedEntry.kindBits`): a texture's
            /// 16-bit samples (1) and premultiplied alpha (2).
            public static let kindBits = Bits(rawValue: 3)
            /// A texture's 16-bit samples: the texture kind's first bit.
            @available(*, deprecated, message: "a kind's own bit (BakedEntry.kindBits): the texture kind's first")
            public static let rgba16 = Bits(rawValue: 1)
            /// A texture's premultiplied alpha: the texture kind's second bit.
            @available(*, deprecated, message: "a kind's own bit (BakedEntry.kindBits): the texture kind's second")
            public static let premultiplied = Bits(rawValue: 2)
            /// Loaded for another entry (an atlas's page or sprite), as loading the sources
            /// does: not requested on its own when the pack is.
            public static let dependency = Bits(rawValue: 4)
            /// A page an atlas packed at load time: part of its atlas only, never stored alone.
            public static let atlasPage = Bits(rawValue: 8)
            /// Every bit this version knows: a reader refuses others.
            public static let all: Bits = [.kindBits, .dependency, .atlasPage]
        }

        /// A record with these fields.
        public init(
            dataOffset: UInt64, dataLength: UInt64, sourceSize: UInt64, dataChecksum: UInt32, sourceChecksum: UInt32,
            name: Range<UInt32>, sourcePath: Range<UInt32>, width: UInt32, height: UInt32, dependencies: Range<UInt32>, kind: UInt8,
            bits: Bits
        ) {
            self.dataOffset = dataOffset
            self.dataLength = dataLength
            self.sourceSize = sourceSize
            self.dataChecksum = dataChecksum
            self.sourceChecksum = sourceChecksum
            self.name = name
            self.sourcePath = sourcePath
            self.width = width
            self.height = height
            self.dependencies = dependencies
            self.kind = kind
            self.bits = bits
        }

        /// The 64 record bytes.
        public func encoded() -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(BakedFormat.recordSize)
            bytes.appendLittleEndian(dataOffset)
            bytes.appendLittleEndian(dataLength)
            bytes.appendLittleEndian(sourceSize)
            bytes.appendLittleEndian(dataChecksum)
            bytes.appendLittleEndian(sourceChecksum)
            bytes.appendLittleEndian(name.lowerBound)
            bytes.appendLittleEndian(UInt32(name.count))
            bytes.appendLittleEndian(sourcePath.lowerBound)
            bytes.appendLittleEndian(UInt32(sourcePath.count))
            bytes.appendLittleEndian(width)
            bytes.appendLittleEndian(height)
            bytes.appendLittleEndian(dependencies.lowerBound)
            bytes.appendLittleEndian(UInt16(dependencies.count))
            bytes.append(kind)
            bytes.append(bits.rawValue)
            return bytes
        }
    }

    /// Where the next entry's data starts after `end`, for an entry of `length` bytes.
    public static func alignedOffset(after end: Int, length: Int) -> Int {
        let alignment = length >= pageAlignedSize ? pageAlignment : entryAlignment
        return (end + alignment - 1) / alignment * alignment
    }
}
