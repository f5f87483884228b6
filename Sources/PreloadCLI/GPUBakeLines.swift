import Foundation
import Preload
import PreloadAuthoring

/// What `preload bake --gpu` prints about its textures: one line each (format, PSNR, name), then
/// the totals: sizes before and after, mean and minimum PSNR, encoding speed.
enum GPUBakeLines {
    static func lines(of summary: BakeWriter.Summary) -> [String] {
        let textures = summary.gpuTextures
        guard !textures.isEmpty else { return [] }
        var lines = textures.map { texture in
            "  \(texture.format.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(decibels(texture.psnr).leftPadded(to: 9))  \(texture.name)"
        }
        let finite = textures.map(\.psnr).filter(\.isFinite)
        let mean = finite.isEmpty ? Double.infinity : finite.reduce(0, +) / Double(finite.count)
        let worst = textures.min { $0.psnr < $1.psnr }!
        let formats = Dictionary(grouping: textures, by: \.format).sorted { $0.value.count > $1.value.count }
            .map { "\($0.value.count) \($0.key.rawValue)" }.joined(separator: ", ")
        let ratio = summary.texturesBytesBefore > 0 ? Double(summary.texturesBytesAfter) / Double(summary.texturesBytesBefore) : 0
        lines.append(
            "GPU textures: \(formats); \(BakeWriter.Summary.shown(summary.texturesBytesBefore)) as loaded, \(BakeWriter.Summary.shown(summary.texturesBytesAfter)) baked with mipmaps (\(String(format: "%.2f", ratio))x)"
        )
        lines.append(
            "  PSNR over premultiplied RGBA: mean \(decibels(mean)), min \(decibels(worst.psnr)) (\(worst.name)); encoded \(String(format: "%.1f", summary.gpuMegapixels)) Mpixels in \(String(format: "%.2f", summary.gpuSeconds)) s (\(String(format: "%.1f", summary.gpuSeconds > 0 ? summary.gpuMegapixels / summary.gpuSeconds : 0)) Mpixels/s)"
        )
        return lines
    }

    static func decibels(_ value: Double) -> String { value.isFinite ? String(format: "%.1f dB", value) : "exact" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
