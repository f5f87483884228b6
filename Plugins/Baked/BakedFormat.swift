import Preload

/// The layout of a baked pack (`.bake`), version 1: what `preload bake` writes and
/// ``BakedPackLoader`` reads. All numbers are little-endian. `docs/bake-format.md` is the same
/// description for another tool's author.
///
/// ```
/// [header, 64 bytes] [entry data, each aligned] [index: records, dependency table, strings]
/// ```
public enum BakedFormat {
    /// The first 8 bytes: `\x89PBAKE\r\n`. The high byte and the line ending catch a file that
    /// went through a text transfer, as PNG's signature does.
    public static let magic: [UInt8] = [0x89, 0x50, 0x42, 0x41, 0x4B, 0x45, 0x0D, 0x0A]
    /// The version this library writes and reads.
    public static let version: UInt32 = 1
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

    /// What an entry holds.
    public enum Kind: UInt8, Sendable {
        /// RGBA rows, top row first, tightly packed; 16-bit samples little-endian (the byte order
        /// of every host this library runs on, so rows are handed out as they are).
        case texture = 1
        /// An atlas: its frame table as JSON (``BakedAtlasTable``); its pages are other entries.
        case atlas = 2
        /// A data file's bytes.
        case data = 3
        /// A sound (its PCM, as loaded) or music (its encoded file), after a 64-byte header
        /// (``BakedAudio``).
        case audio = 4
        /// A bitmap font: a header, its metrics and pages as JSON, its glyphs and kerning as
        /// fixed-size records (``BakedFont``); its pages are other entries.
        case font = 5
        /// A Tiled map: a header and its tables as JSON (``BakedMap``); its images are other
        /// entries.
        case tilemap = 6
        /// A texture in a GPU format (BC7, ASTC, ...) or with a mipmap chain: a header naming the
        /// format, a level table and every level's bytes (``BakedGPUTexture``).
        case gpuTexture = 7

        /// Whether entries of this kind load as a `Texture` (an atlas's or a font's page
        /// may be either texture kind).
        public var isTexture: Bool { self == .texture || self == .gpuTexture }
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
        /// Where, in the index's strings, the warnings loading the sources gave are: a JSON object
        /// from entry positions to lists of `{"code", "message"}` (empty: no entry has any).
        public var warnings: Range<UInt32>

        /// A header with these fields (the magic and version are the format's own).
        public init(
            flags: Flags, fileLength: UInt64, indexOffset: UInt64, indexLength: UInt64, entryCount: UInt32,
            dependencyCount: UInt32, indexChecksum: UInt32, warnings: Range<UInt32> = 0..<0
        ) {
            self.warnings = warnings
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
            bytes.appendLittleEndian(BakedFormat.version)
            bytes.appendLittleEndian(flags.rawValue)
            bytes.appendLittleEndian(fileLength)
            bytes.appendLittleEndian(indexOffset)
            bytes.appendLittleEndian(indexLength)
            bytes.appendLittleEndian(entryCount)
            bytes.appendLittleEndian(indexChecksum)
            bytes.appendLittleEndian(dependencyCount)
            bytes.appendLittleEndian(warnings.lowerBound)
            bytes.appendLittleEndian(UInt32(warnings.count))
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
        /// A texture's width in pixels (0 for other kinds).
        public var width: UInt32
        /// A texture's height in pixels (0 for other kinds).
        public var height: UInt32
        /// Where this entry's dependencies are in the index's dependency table.
        public var dependencies: Range<UInt32>
        /// What the entry holds.
        public var kind: Kind
        /// The record's flags.
        public var bits: Bits

        /// The record's flag byte.
        public struct Bits: OptionSet, Sendable, Equatable {
            /// The bits as stored.
            public let rawValue: UInt8
            /// Flags from their stored bits.
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// Texture samples are 16-bit (`PixelFormat.rgba16`), not 8-bit.
            public static let rgba16 = Bits(rawValue: 1)
            /// Colour is premultiplied by alpha.
            public static let premultiplied = Bits(rawValue: 2)
            /// Loaded for another entry (an atlas's page or sprite), as loading the sources
            /// does: not requested on its own when the pack is.
            public static let dependency = Bits(rawValue: 4)
            /// A page an atlas packed at load time: part of its atlas only, never stored alone.
            public static let atlasPage = Bits(rawValue: 8)
            /// Every bit this version knows: a reader refuses others.
            public static let all: Bits = [.rgba16, .premultiplied, .dependency, .atlasPage]
        }

        /// A record with these fields.
        public init(
            dataOffset: UInt64, dataLength: UInt64, sourceSize: UInt64, dataChecksum: UInt32, sourceChecksum: UInt32,
            name: Range<UInt32>, sourcePath: Range<UInt32>, width: UInt32, height: UInt32, dependencies: Range<UInt32>, kind: Kind,
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
            bytes.append(kind.rawValue)
            bytes.append(bits.rawValue)
            return bytes
        }

        /// The pixel format a texture entry's rows are in.
        public var pixelFormat: PixelFormat { bits.contains(.rgba16) ? .rgba16 : .rgba8 }
        /// The alpha mode a texture entry's pixels are in.
        public var alphaMode: AlphaMode { bits.contains(.premultiplied) ? .premultiplied : .straight }
    }

    /// Where the next entry's data starts after `end`, for an entry of `length` bytes.
    public static func alignedOffset(after end: Int, length: Int) -> Int {
        let alignment = length >= pageAlignedSize ? pageAlignment : entryAlignment
        return (end + alignment - 1) / alignment * alignment
    }
}

/// Little-endian writing, for the header and the index.
extension [UInt8] {
    package mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`.
    func littleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
