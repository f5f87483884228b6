import Preload

/// Tells a Basis Universal file (Binomial's supercompressed formats, written by `basisu`,
/// `toktx --encode` and `ktx create --encode`) from the GPU formats a `Texture` holds, from its
/// header and the colour model of its Data Format Descriptor, so that it is refused by name
/// rather than as an unknown format.
enum BasisUniversalCheck {
    /// `KHR_DF_MODEL_*` of Basis Universal's block formats, by name.
    static let colorModels: [UInt8: String] = [
        163: "ETC1S", 166: "UASTC (LDR 4x4)", 167: "UASTC HDR 4x4", 168: "UASTC HDR 6x6", 169: "XUASTC LDR",
    ]
    /// Supercompression schemes only Basis Universal's transcoder undoes, by name.
    static let schemes: [UInt32: String] = [1: "BasisLZ (ETC1S)", 4: "UASTC HDR 6x6i", 5: "XUASTC LDR"]

    /// Throws ``KTX2LoadError/basisUniversal(_:)`` when `header` (read from `file`) is a Basis
    /// Universal texture's.
    static func refuse(_ header: KTX2HeaderFields, in file: UnsafeRawBufferPointer) throws(KTX2LoadError) {
        let advice =
            "transcode it to a GPU format first (`ktx transcode --target bc7` or `astc`), or export it from its source "
            + "with `preload export --ktx2 --gpu bc|astc`"
        if let scheme = schemes[header.supercompressionScheme] {
            throw .basisUniversal("its levels are \(scheme) (supercompression scheme \(header.supercompressionScheme)); \(advice)")
        }
        guard header.vkFormat == 0, let model = header.colorModel(in: file), let name = colorModels[model] else { return }
        throw .basisUniversal("its levels are \(name) blocks (vkFormat 0, colour model \(model)); \(advice)")
    }
}
