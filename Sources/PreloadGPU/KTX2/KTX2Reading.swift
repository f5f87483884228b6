import Preload

extension KTX2File {
    /// Reads a KTX2 file: checks every field of its header, index, level index, Data Format
    /// Descriptor and key/value data against the file and the specification, then copies (or
    /// inflates, for Zstandard) its levels into one `Texture`.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - limits: the largest texture accepted, checked before any pixel memory exists (a
    ///     Zstandard file claims sizes its bytes do not show).
    /// - Throws: ``KTX2Error`` naming what is wrong; never traps on damaged bytes.
    public init(decoding bytes: [UInt8], limits: ImageLimits = ImageLimits()) throws(KTX2Error) {
        self = try bytes.withUnsafeBytes { file in Result { () throws(KTX2Error) in try KTX2File(decoding: file, limits: limits) } }.get()
    }

    /// Reads a KTX2 file held in memory `file` (a mapped file, a pack entry), with the checks
    /// and errors of reading it from an array. The texture's pixels are copied out of `file`.
    public init(decoding file: UnsafeRawBufferPointer, limits: ImageLimits = ImageLimits()) throws(KTX2Error) {
        let reader = KTX2Reader(file: file)
        let header = try reader.header(limits: limits)
        let sections = try reader.sections(of: header)
        let levels = try reader.levels(of: header, dataStart: sections.dataStart)
        let dfd = try KTX2DataFormatDescriptor(parsing: UnsafeRawBufferPointer(rebasing: file[sections.dfd]))
        let (colorSpace, alphaMode) = try reader.colorSpaceAndAlpha(of: dfd, header: header)
        keyValues = try reader.keyValues(in: sections.kvd)
        if let orientation = keyValues["KTXorientation"] {
            let text = String(decoding: orientation.prefix { $0 != 0 }, as: UTF8.self)
            guard text == "rd" else { throw .unsupportedOrientation(text) }
        }
        supercompression = header.supercompression
        let pixels = try reader.pixels(of: levels, header: header)
        texture = Texture(
            width: header.width, height: header.height, pixelFormat: header.format, alphaMode: alphaMode, colorSpace: colorSpace,
            mipLevelCount: levels.count, pixels: pixels)
    }
}

/// The checks and copies of reading a ``KTX2File``, one part of the file each; every offset is
/// checked against the file before it is read.
private struct KTX2Reader {
    /// What the header says, checked.
    struct Header {
        var format: PixelFormat
        /// The colour space `vkFormat` names, or `nil` when the format has no sRGB variant
        /// (the DFD's transfer function says then).
        var formatColorSpace: ColorSpace?
        var width: Int
        var height: Int
        var levelCount: Int
        var supercompression: KTX2Supercompression
        var byteCount: Int
    }

    /// Where the DFD and the key/value data are, and where level data may start.
    struct Sections {
        var dfd: Range<Int>
        var kvd: Range<Int>
        var dataStart: Int
    }

    /// One level: where its stored bytes are and where they go in the texture's pixels.
    struct Level {
        var stored: Range<Int>
        var offset: Int
        var byteCount: Int
    }

    let file: UnsafeRawBufferPointer

    func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }

    func header(limits: ImageLimits) throws(KTX2Error) -> Header {
        let identifier = KTX2File.identifier
        guard file.prefix(identifier.count).elementsEqual(identifier.prefix(file.count)) else { throw .badIdentifier }
        guard file.count >= KTX2File.headerByteCount else {
            throw .truncated(part: file.count < identifier.count ? "identifier" : "header", needed: KTX2File.headerByteCount, available: file.count)
        }
        let vkFormat = u32(12)
        guard let (format, formatColorSpace) = Self.format(vulkanFormat: vkFormat) else { throw .unknownFormat(vkFormat: vkFormat) }
        let typeSize = KTX2File.typeSize(of: format)
        guard u32(16) == typeSize else { throw .invalidHeader(field: "typeSize", value: UInt64(u32(16)), expected: "\(typeSize) for \(format)") }
        let width = u32(20), height = u32(24)
        guard width > 0 else { throw .invalidHeader(field: "pixelWidth", value: 0, expected: "at least 1") }
        guard height > 0 else { throw .unsupportedTextureType("1D") }
        guard u32(28) == 0 else { throw .unsupportedTextureType("3D") }
        guard u32(32) == 0 else { throw .unsupportedTextureType("array") }
        guard u32(36) != 6 else { throw .unsupportedTextureType("cube map") }
        guard u32(36) == 1 else { throw .invalidHeader(field: "faceCount", value: UInt64(u32(36)), expected: "1 or 6") }
        guard width <= limits.maxWidth, height <= limits.maxHeight else {
            throw .tooLarge(width: Int(width), height: Int(height), byteCount: .max, limits: limits)
        }
        let storedLevelCount = u32(40), fullLevelCount = Texture.fullMipLevelCount(width: Int(width), height: Int(height))
        guard storedLevelCount > 0 || !format.isBlockCompressed else {
            throw .invalidHeader(field: "levelCount", value: 0, expected: "at least 1 for a block-compressed format")
        }
        guard storedLevelCount <= fullLevelCount else {
            throw .invalidHeader(field: "levelCount", value: UInt64(storedLevelCount), expected: "at most \(fullLevelCount) for \(width)x\(height)")
        }
        let levelCount = max(1, Int(storedLevelCount))
        guard let supercompression = KTX2Supercompression(rawValue: u32(44)) else { throw .unsupportedSupercompression(scheme: u32(44)) }
        let byteCount = Texture.byteCount(width: Int(width), height: Int(height), pixelFormat: format, mipLevelCount: levelCount)
        guard byteCount >= 0, byteCount <= limits.maxDecodedBytes else {
            throw .tooLarge(width: Int(width), height: Int(height), byteCount: byteCount < 0 ? .max : byteCount, limits: limits)
        }
        return Header(
            format: format, formatColorSpace: formatColorSpace, width: Int(width), height: Int(height), levelCount: levelCount,
            supercompression: supercompression, byteCount: byteCount)
    }

    /// The format `vulkanFormat` names, and the colour space it fixes when the format has an
    /// sRGB and a linear variant.
    static func format(vulkanFormat: UInt32) -> (PixelFormat, ColorSpace?)? {
        for format in PixelFormat.allCases {
            let srgb = format.vulkanFormat(colorSpace: .sRGB), linear = format.vulkanFormat(colorSpace: .linear)
            if vulkanFormat == srgb { return (format, srgb == linear ? nil : .sRGB) }
            if vulkanFormat == linear { return (format, .linear) }
        }
        return nil
    }

    /// The end of the level index: where the DFD, key/value data and levels may start.
    func levelIndexEnd(of header: Header) -> Int { KTX2File.headerByteCount + KTX2File.levelIndexEntryByteCount * header.levelCount }

    func sections(of header: Header) throws(KTX2Error) -> Sections {
        let indexEnd = levelIndexEnd(of: header)
        guard file.count >= indexEnd else { throw .truncated(part: "level index", needed: indexEnd, available: file.count) }
        /// `length` bytes at `offset`, after the level index, inside the file, on 4 bytes.
        func section(_ part: String, offset: UInt64, length: UInt64) throws(KTX2Error) -> Range<Int> {
            guard offset >= indexEnd, offset % 4 == 0, length <= file.count, offset <= UInt64(file.count) - length else {
                throw .sectionOutsideFile(part: part, offset: offset, length: length, fileSize: file.count)
            }
            return Int(offset)..<Int(offset + length)
        }
        let dfdLength = u32(52), kvdOffset = u32(56), kvdLength = u32(60)
        guard dfdLength > 0 else { throw .missingDataFormatDescriptor }
        let dfd = try section("Data Format Descriptor", offset: UInt64(u32(48)), length: UInt64(dfdLength))
        guard kvdLength > 0 || kvdOffset == 0 else {
            throw .invalidHeader(field: "kvdByteOffset", value: UInt64(kvdOffset), expected: "0 when kvdByteLength is 0")
        }
        let kvd =
            kvdLength == 0 ? dfd.upperBound..<dfd.upperBound : try section("key/value data", offset: UInt64(kvdOffset), length: UInt64(kvdLength))
        // Neither no supercompression nor Zstandard has global data.
        guard u64(64) == 0, u64(72) == 0 else {
            throw .sectionOutsideFile(part: "supercompression global data", offset: u64(64), length: u64(72), fileSize: file.count)
        }
        guard dfd.upperBound <= kvd.lowerBound || kvd.upperBound <= dfd.lowerBound || kvd.isEmpty else {
            throw .sectionOutsideFile(part: "key/value data", offset: UInt64(kvdOffset), length: UInt64(kvdLength), fileSize: file.count)
        }
        return Sections(dfd: dfd, kvd: kvd, dataStart: max(indexEnd, dfd.upperBound, kvd.upperBound))
    }

    func levels(of header: Header, dataStart: Int) throws(KTX2Error) -> [Level] {
        let alignment = KTX2File.levelAlignment(of: header.format, supercompression: header.supercompression)
        var levels: [Level] = [], width = header.width, height = header.height, offset = 0
        for index in 0..<header.levelCount {
            let entry = KTX2File.headerByteCount + KTX2File.levelIndexEntryByteCount * index
            let storedOffset = u64(entry), storedLength = u64(entry + 8), uncompressedLength = u64(entry + 16)
            // The header's check of every level's bytes against the limits keeps this in range.
            let byteCount = header.format.byteCount(width: width, height: height) ?? 0
            guard uncompressedLength == byteCount else { throw .levelLengthMismatch(level: index, length: uncompressedLength, expected: byteCount) }
            if header.supercompression == .none {
                guard storedLength == byteCount else { throw .levelLengthMismatch(level: index, length: storedLength, expected: byteCount) }
                guard storedOffset % UInt64(alignment) == 0 else { throw .levelMisaligned(level: index, offset: storedOffset, alignment: alignment) }
            }
            guard storedOffset >= dataStart, storedLength <= file.count, storedOffset <= UInt64(file.count) - storedLength else {
                throw .levelOutsideFile(level: index, offset: storedOffset, length: storedLength, fileSize: file.count)
            }
            levels.append(Level(stored: Int(storedOffset)..<Int(storedOffset + storedLength), offset: offset, byteCount: byteCount))
            offset += byteCount
            width = max(1, width / 2)
            height = max(1, height / 2)
        }
        return levels
    }

    /// The texture's colour space (the transfer function's, which must agree with `vkFormat`
    /// when the format has sRGB and linear variants) and alpha mode, after checking `dfd`
    /// describes `vkFormat`.
    func colorSpaceAndAlpha(of dfd: KTX2DataFormatDescriptor, header: Header) throws(KTX2Error) -> (ColorSpace, AlphaMode) {
        let transferColorSpace: ColorSpace
        switch dfd.transferFunction {
        case KTX2DataFormatDescriptor.transferSRGB: transferColorSpace = .sRGB
        case KTX2DataFormatDescriptor.transferLinear: transferColorSpace = .linear
        default: throw .unsupportedTransferFunction(UInt32(dfd.transferFunction))
        }
        // An _SRGB vkFormat must have the sRGB transfer function; the _UNORM variant of a format
        // that has an _SRGB one should not (Khronos' `ktx validate` refuses it too).
        if let formatColorSpace = header.formatColorSpace, formatColorSpace != transferColorSpace {
            let expected = formatColorSpace == .sRGB ? KTX2DataFormatDescriptor.transferSRGB : KTX2DataFormatDescriptor.transferLinear
            throw .dataFormatDescriptorMismatch(field: "transferFunction", found: UInt32(dfd.transferFunction), expected: UInt32(expected))
        }
        guard dfd.flags & ~KTX2DataFormatDescriptor.flagPremultiplied == 0 else {
            throw .invalidDataFormatDescriptor("flags \(dfd.flags) has bits no specification defines")
        }
        let alphaMode: AlphaMode = dfd.flags & KTX2DataFormatDescriptor.flagPremultiplied != 0 ? .premultiplied : .straight
        let expected = KTX2DataFormatDescriptor(format: header.format, colorSpace: transferColorSpace, alphaMode: alphaMode)
        try dfd.check(matches: expected, supercompressed: header.supercompression != .none)
        return (transferColorSpace, alphaMode)
    }

    /// The key/value pairs in `range`: each a length, a NUL-terminated UTF-8 key and a value,
    /// padded to 4 bytes, sorted by key, each key once, filling the range exactly.
    func keyValues(in range: Range<Int>) throws(KTX2Error) -> [String: [UInt8]] {
        var pairs: [String: [UInt8]] = [:], at = range.lowerBound, previousKey: [UInt8]?
        while at < range.upperBound {
            guard range.upperBound - at >= 4 else { throw .invalidKeyValueData("the entry at byte \(at) is cut inside its length") }
            let length = Int(u32(at)), start = at + 4, remaining = range.upperBound - start
            guard length >= 2, length <= remaining else {
                throw .invalidKeyValueData("the entry at byte \(at) claims \(length) bytes, \(remaining) remain")
            }
            let entry = file[start..<start + length]
            guard let nul = entry.firstIndex(of: 0), nul > start else {
                throw .invalidKeyValueData("the key at byte \(start) is empty or has no NUL")
            }
            let keyBytes = Array(file[start..<nul])
            guard let key = String(validating: keyBytes, as: UTF8.self) else { throw .invalidKeyValueData("the key at byte \(start) is not UTF-8") }
            if let previousKey {
                guard previousKey.lexicographicallyPrecedes(keyBytes) else {
                    throw .invalidKeyValueData("key \"\(key)\" is out of order or repeated")
                }
            }
            pairs[key] = Array(file[nul + 1..<start + length])
            previousKey = keyBytes
            at = start + (length + 3) / 4 * 4
            guard at <= range.upperBound else { throw .invalidKeyValueData("the padding after key \"\(key)\" runs past kvdByteLength") }
        }
        return pairs
    }

    /// Every level's bytes, level 0 first, copied or inflated into one array.
    func pixels(of levels: [Level], header: Header) throws(KTX2Error) -> [UInt8] {
        // One spare byte at the end: a Zstandard level inflates into its own bytes plus the
        // next one, so that data inflating to more than the level shows (the next level, filled
        // after, overwrites that byte).
        var pixels = [UInt8](repeating: 0, count: header.byteCount + 1)
        var failure: KTX2Error?
        let zstd: ZstdLibrary?
        do { zstd = header.supercompression == .zstd ? try ZstdLibrary.shared.get() : nil } catch { throw .libraryMissing(error) }
        pixels.withUnsafeMutableBytes { output in
            for (index, level) in levels.enumerated() {
                let stored = UnsafeRawBufferPointer(rebasing: file[level.stored])
                guard let zstd else {
                    UnsafeMutableRawBufferPointer(rebasing: output[level.offset..<level.offset + level.byteCount]).copyMemory(from: stored)
                    continue
                }
                let destination = UnsafeMutableRawBufferPointer(rebasing: output[level.offset..<level.offset + level.byteCount + 1])
                do throws(ZstdFailure) {
                    let inflated = try zstd.decompress(stored, into: destination)
                    guard inflated == level.byteCount else {
                        let size = inflated > level.byteCount ? "more than" : "\(inflated) bytes, not"
                        failure = .damagedLevel(level: index, detail: "zstd data inflates to \(size) the level's \(level.byteCount) bytes")
                        return
                    }
                } catch {
                    let detail =
                        error.isDestinationTooSmall ? "zstd data inflates to more than the level's \(level.byteCount) bytes" : error.description
                    failure = .damagedLevel(level: index, detail: detail)
                    return
                }
            }
        }
        if let failure { throw failure }
        pixels.removeLast()
        if header.format == .rgba16 { LittleEndianBytes.swapSamples16(&pixels) }
        return pixels
    }
}
