import Preload

extension KTX2File {
    /// The file's bytes, as the KTX 2.0 specification lays them out: identifier, header, index,
    /// level index (level 0 first), Data Format Descriptor, key/value data sorted by key, then
    /// the levels smallest first, each on its alignment (`lcm(block bytes, 4)`, or 1 when
    /// compressed). Write them with `AtomicFile` (Preload) to replace a file safely.
    /// - Parameter zstdLevel: Zstandard's level when ``supercompression`` is
    ///   ``KTX2Supercompression/zstd``: 1 (fastest) to 19 (smallest; 20 to 22 need more memory).
    /// - Throws: ``KTX2Error/emptyTexture(width:height:)`` for a texture without pixels,
    ///   ``KTX2Error/invalidKey(_:)`` for a key that cannot be stored,
    ///   ``KTX2Error/libraryMissing(_:)`` for Zstandard without libzstd.
    public func encoded(zstdLevel: Int32 = 19) throws(KTX2Error) -> [UInt8] {
        guard texture.width > 0, texture.height > 0 else { throw .emptyTexture(width: texture.width, height: texture.height) }
        let format = texture.pixelFormat, levels = texture.levels
        let levelData = try levels.indices.map { (index) throws(KTX2Error) in try storedBytes(ofLevel: index, zstdLevel: zstdLevel) }
        let dfd = KTX2DataFormatDescriptor(format: format, colorSpace: texture.colorSpace, alphaMode: texture.alphaMode).bytes
        let kvd = try keyValueData()

        let dfdOffset = Self.headerByteCount + Self.levelIndexEntryByteCount * levels.count
        let kvdOffset = dfdOffset + dfd.count
        let alignment = Self.levelAlignment(of: format, supercompression: supercompression)
        // The levels go smallest first; the index lists them largest first.
        var levelOffsets = [Int](repeating: 0, count: levels.count), end = kvdOffset + kvd.count
        for index in levels.indices.reversed() {
            end = (end + alignment - 1) / alignment * alignment
            levelOffsets[index] = end
            end += levelData[index].count
        }

        var file = LittleEndianBytes(capacity: end)
        file.append(Self.identifier)
        file.append32(format.vulkanFormat(colorSpace: texture.colorSpace))
        file.append32(Self.typeSize(of: format))
        file.append32(texture.width)
        file.append32(texture.height)
        file.append32(0)  // pixelDepth: a 2D texture
        file.append32(0)  // layerCount: not an array
        file.append32(1)  // faceCount: not a cube map
        file.append32(levels.count)
        file.append32(supercompression.rawValue)
        file.append32(dfdOffset)
        file.append32(dfd.count)
        file.append32(kvd.isEmpty ? 0 : kvdOffset)
        file.append32(kvd.count)
        file.append64(0)  // sgdByteOffset: no supercompression global data (none for Zstandard)
        file.append64(0)  // sgdByteLength
        for (index, level) in levels.enumerated() {
            file.append64(levelOffsets[index])
            file.append64(levelData[index].count)
            file.append64(level.byteCount)
        }
        file.append(dfd)
        file.append(kvd)
        for index in levels.indices.reversed() {
            file.pad(to: levelOffsets[index])
            file.append(levelData[index])
        }
        return file.bytes
    }

    /// Level `index`'s bytes as the file stores them: as they are (16-bit samples
    /// little-endian), or compressed.
    private func storedBytes(ofLevel index: Int, zstdLevel: Int32) throws(KTX2Error) -> [UInt8] {
        let level = texture.levels[index]
        var bytes = texture.pixels.withUnsafeBytes { Array($0[level.offset..<level.offset + level.byteCount]) }
        if texture.pixelFormat == .rgba16 { LittleEndianBytes.swapSamples16(&bytes) }
        guard supercompression == .zstd else { return bytes }
        let zstd: ZstdLibrary
        do { zstd = try ZstdLibrary.shared.get() } catch { throw .libraryMissing(error) }
        let compressed = bytes.withUnsafeBytes { raw in Result { () throws(ZstdFailure) in try zstd.compress(raw, level: zstdLevel) } }
        do throws(ZstdFailure) { return try compressed.get() } catch { throw .compressionFailed(level: index, detail: error.description) }
    }

    /// The key/value data: ``keyValues`` with `KTXorientation` and `KTXwriter` added when
    /// missing, sorted by key (byte order of UTF-8 is code point order), each entry padded to 4.
    private func keyValueData() throws(KTX2Error) -> [UInt8] {
        var entries = keyValues
        if entries["KTXorientation"] == nil { entries["KTXorientation"] = Array("rd".utf8) + [0] }
        if entries["KTXwriter"] == nil { entries["KTXwriter"] = Array(Self.defaultWriter.utf8) + [0] }
        var data = LittleEndianBytes(capacity: 64)
        for (key, value) in entries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            let keyBytes = Array(key.utf8)
            let reserved = (key.hasPrefix("KTX") || key.hasPrefix("ktx")) && !Self.knownKeys.contains(key)
            guard !keyBytes.isEmpty, !keyBytes.contains(0), !reserved else { throw .invalidKey(key) }
            data.append32(keyBytes.count + 1 + value.count)
            data.append(keyBytes)
            data.append([0])
            data.append(value)
            data.pad(to: (data.bytes.count + 3) / 4 * 4)
        }
        return data.bytes
    }

    /// The keys the KTX 2.0 specification defines (every other key starting with `KTX` or `ktx`
    /// is reserved).
    static let knownKeys: Set<String> = [
        "KTXcubemapIncomplete", "KTXorientation", "KTXglFormat", "KTXdxgiFormat__", "KTXmetalPixelFormat", "KTXswizzle", "KTXwriter",
        "KTXwriterScParams", "KTXastcDecodeMode", "KTXanimData",
    ]
}
