import Foundation
import Preload
import PreloadAuthoring

/// What `preload bake --gpu` and `preload export --gpu` print about the textures: one line each
/// (format, PSNR, name), then the totals: sizes before and after, mean and minimum PSNR,
/// encoding speed.
enum GPUBakeLines {
    /// The lines for `totals`; a texture below `threshold` dB is listed again at the end as a
    /// warning (the pack keeps it: loading the texture reports it, `--strict` fails it).
    static func lines(of totals: GPUBakeTotals?, threshold: Double) -> [String] {
        guard let totals, let worst = totals.worst else { return [] }
        guard totals.textures.contains(where: { $0.format != .rgba8 }) else {
            // Mipmaps only: nothing was encoded, nothing lost.
            return [
                "Mipmaps: \(counted(totals.textures.count, "texture")), \(BakeWriter.Summary.shown(totals.bytesAfter)) with every level "
                    + "(\(BakeWriter.Summary.shown(totals.bytesBefore)) as loaded)"
            ]
        }
        var lines = totals.textures.map { texture in
            "  \(texture.format.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(leftPadded(GPUTextureQuality.decibels(texture.psnr)))  \(texture.name)"
        }
        let formats = Dictionary(grouping: totals.textures, by: \.format).sorted { $0.value.count > $1.value.count }
            .map { "\($0.value.count) \($0.key.rawValue)" }.joined(separator: ", ")
        let ratio = totals.rgba8Bytes > 0 ? Double(totals.bytesAfter) / Double(totals.rgba8Bytes) : 0
        lines.append(
            "GPU textures: \(formats); \(BakeWriter.Summary.shown(totals.bytesAfter)) with every level, "
                + "\(String(format: "%.2f", ratio))x the \(BakeWriter.Summary.shown(totals.rgba8Bytes)) of the same levels in RGBA8 "
                + "(\(BakeWriter.Summary.shown(totals.bytesBefore)) as loaded)")
        let speed = totals.seconds > 0 ? totals.megapixels / totals.seconds : 0
        lines.append(
            "  PSNR over premultiplied RGBA: mean \(GPUTextureQuality.decibels(totals.meanPSNR)), min \(GPUTextureQuality.decibels(worst.psnr)) "
                + "(\(worst.name)); encoded \(String(format: "%.1f", totals.megapixels)) Mpixels in \(String(format: "%.2f", totals.seconds)) s "
                + "(\(String(format: "%.1f", speed)) Mpixels/s)")
        let low = totals.textures.filter { $0.psnr < threshold }
        if !low.isEmpty {
            lines.append(
                "  warnings: \(counted(low.count, "texture")) below \(GPUTextureQuality.decibels(threshold)) (--min-psnr; --strict fails them)")
            for texture in low {
                lines.append("    warning: \(texture.name): gpu.low-quality: \(GPUTextureQuality.decibels(texture.psnr)) in \(texture.format)")
            }
        }
        return lines
    }

    private static func leftPadded(_ text: String) -> String { text.count >= 9 ? text : String(repeating: " ", count: 9 - text.count) + text }
}
