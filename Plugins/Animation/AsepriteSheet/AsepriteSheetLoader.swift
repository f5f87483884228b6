import Preload
import PreloadAtlas

/// The Aseprite export loader plugin: the sheet PNG and JSON that `aseprite -b --sheet x.png
/// --data x.json` writes (both `--format json-hash` and `json-array`) load as the same
/// ``SpriteAnimation`` as the `.aseprite` file they came from: each frame's pixels cut from the
/// sheet, un-rotated and placed on the canvas by `spriteSourceSize`, with its `duration`, and
/// `meta.frameTags` as tags (`repeat` as a number or a string).
///
/// The sheet (`meta.image`, relative to the JSON, or the request's ``AsepriteSheetLocation``, as a
/// Phaser pack's `aseprite` entry's `textureURL` gives it) is a dependency loaded by whichever
/// plugin claims it (the PNG plugin). A JSON is claimed by content when its first frame has a
/// `duration` (TexturePacker's atlases have none: they are passed on at their first bytes) and
/// its `meta` holds `frameTags` (Aseprite writes them with `--list-tags`, or with "Tags" ticked
/// in its export dialog); an export without tags stays the atlas plugin's, a `TextureAtlas` as before. A request naming
/// this plugin (`"aseprite-sheet"`) loads any export. `meta.slices` load as the animation's
/// slices, tags' and slices' `color` and `data` as their user data; `meta.layers` is not read.
///
/// Damage fails by name (``AsepriteError``): a frame outside its sheet or its source size, a
/// tag past the frames, a field of the wrong type; a sheet that fails fails the animation with
/// the sheet's cause.
///
/// ```swift
/// import Preload
/// import PreloadAnimation
/// import PreloadPNG
///
/// let coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AsepriteSheetLoader()])
/// ```
public struct AsepriteSheetLoader: PlanningPlugin {
    /// What planning read: the export, handed to the load so the JSON is parsed once.
    public struct PlanningNote: Sendable {
        let sheet: AsepriteSheetFormat
        let page: String
    }

    /// An Aseprite export loader (the sheet decodes with the coordinator's PNG plugin).
    public init() {}

    public var identifier: String { "aseprite-sheet" }
    public var assetKind: AssetKind { .animation }
    /// None: the export's `.json` is claimed by content (see the type's summary).
    public var fileExtensions: Set<String> { [] }
    public var headerLength: Int { 512 }
    /// Aseprite writes `meta` after every frame: up to 4 MiB of an export is read to find its
    /// `frameTags` (JSON whose first frame has no `duration` is passed on at its first bytes).
    public var signatureReach: Int { 4 << 20 }

    /// Whether `header` is a JSON object with `frames`, the first with a `duration`, whose `meta`
    /// holds `frameTags`.
    public func matchesSignature(_ header: [UInt8]) -> Bool { AsepriteSheetSignature.match(header) == .matches }

    /// Matches once the prefix shows `frames` (the first with a `duration`) and
    /// `meta.frameTags`; undecided while it ends before `meta`; differs at the first frame when
    /// it has no `duration`.
    public func signatureMatch(_ prefix: [UInt8]) -> SignatureMatch { AsepriteSheetSignature.match(prefix) }

    /// The sheet the export names, with the parsed export handed to the load.
    public func plan(_ request: PlannedRequest) throws -> LoadPlan<PlanningNote> {
        let note = try Self.note(for: request)
        return LoadPlan(dependencies: [AssetRequest(path: note.page)], note: note)
    }

    /// The animation cut from the decoded sheet.
    public func load(_ context: LoadContext) throws -> any Asset {
        let note = try context.planningNote(as: PlanningNote.self) ?? Self.note(for: context.request)
        let page = try context.dependency(AssetRequest(path: note.page), as: Texture.self)
        try context.checkCancellation()
        var (animation, warnings) = try Self.animation(note.sheet, page: page, pageName: note.page, memory: context.memory)
        animation.pagesMadeFrom = note.page  // a bake tracks the sheet as the pages' source
        try context.warn(warnings)
        return animation
    }

    /// The animation in an export's JSON `bytes` over its decoded `page` (the sheet), the pages in
    /// `memory`, and the warnings reading it gave.
    /// - Throws: ``AsepriteError`` naming the cause.
    public static func animation(
        json bytes: [UInt8], page: Texture, memory: AssetMemory = .shared
    ) throws -> (
        animation: SpriteAnimation, warnings: [AssetWarning]
    ) {
        let sheet = try AsepriteSheetFormat.read(bytes)
        return try animation(sheet, page: page, pageName: sheet.image, memory: memory)
    }

    /// The export and its sheet: the request's ``AsepriteSheetLocation``, else `meta.image` beside the JSON; where that file is not there
    /// (Aseprite writes the path it exported to, often the artist's absolute path), the file of
    /// that name beside the JSON, else the JSON's own name with `.png`, with a warning.
    private static func note(for request: PlannedRequest) throws -> PlanningNote {
        var sheet = try AsepriteSheetFormat.read(try request.files.read(request.path).array)
        if let given = request.options[AsepriteSheetLocation.self].path { return PlanningNote(sheet: sheet, page: given) }
        let written = AssetPath.resolve(sheet.image, relativeTo: request.path, inside: request.containerPrefix)
        if let written, (try? request.files.facts(of: written)) != nil { return PlanningNote(sheet: sheet, page: written) }
        let fileName = AssetPath.fileName(of: sheet.image), base = AssetPath.fileName(of: request.path)
        let ownName = (base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base) + ".png"
        let candidates = [fileName, ownName].compactMap { AssetPath.resolve($0, relativeTo: request.path, inside: request.containerPrefix) }
        guard let page = candidates.first(where: { (try? request.files.facts(of: $0)) != nil }) else {
            // The names tried beside the JSON, once each, leaving out the one `meta.image` is.
            let tried = [fileName, ownName].reduce(into: [String]()) { names, name in
                if name != sheet.image, !names.contains(name) { names.append(name) }
            }
            throw AsepriteError.sheetNotFound(named: sheet.image, tried: tried)
        }
        sheet.warnings.append(
            AssetWarning(.asepriteSheetPath, "the sheet '\(sheet.image)' is not there: loaded \(AssetPath.fileName(of: page)) beside the JSON"))
        return PlanningNote(sheet: sheet, page: page)
    }

    private static func animation(
        _ sheet: AsepriteSheetFormat, page: Texture, pageName: String, memory: AssetMemory
    ) throws -> (
        animation: SpriteAnimation, warnings: [AssetWarning]
    ) {
        guard page.pixelFormat == .rgba8 || page.pixelFormat == .rgba16 else {
            throw AsepriteError.unsupported(detail: "the sheet \(pageName) is \(page.pixelFormat), where frames are cut from decoded pixels")
        }
        if let size = sheet.sheetSize, size != (page.width, page.height) {
            throw AsepriteError.malformed(
                detail: "'meta': 'size' says \(size.width)x\(size.height), the sheet \(pageName) is \(page.width)x\(page.height)")
        }
        let frames = sheet.frames.map(\.frame)
        for frame in frames where !frame.rect.isInside(width: page.width, height: page.height) {
            throw AsepriteError.malformed(
                detail: "frame '\(frame.name)': \(frame.rect) is outside the \(page.width)x\(page.height) sheet \(pageName)")
        }
        let width = frames.map(\.sourceWidth).max() ?? 0, height = frames.map(\.sourceHeight).max() ?? 0
        let (pages, packed) = try FramePacking.pack(
            try SheetCutting.trims(of: frames, from: page), durations: sheet.frames.map(\.durationMilliseconds), width: width, height: height,
            memory: memory)
        return (
            SpriteAnimation(width: width, height: height, pages: pages, frames: packed, tags: sheet.tags, slices: sheet.slices), sheet.warnings
        )
    }
}
