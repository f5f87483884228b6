import Preload

/// What an atlas descriptor says, before any page is decoded: pages by path (with the size the
/// descriptor declares, when it does) and frames in the normalized model.
public struct AtlasDescription: Hashable, Sendable {
    /// One page image the descriptor names.
    public struct Page: Hashable, Sendable {
        /// The page image's path, resolved against the descriptor's folder.
        public var path: String
        /// The page's name as the descriptor writes it (before resolving), when it writes one.
        public var nameAsWritten: String?
        /// The size the descriptor declares, when it declares one.
        public var declaredWidth: Int?
        /// The height the descriptor declares, when it declares one.
        public var declaredHeight: Int?

        /// A page image at `path` (written `nameAsWritten`), with the size the descriptor
        /// declares, if any.
        public init(path: String, nameAsWritten: String? = nil, declaredWidth: Int? = nil, declaredHeight: Int? = nil) {
            self.path = path
            self.nameAsWritten = nameAsWritten
            self.declaredWidth = declaredWidth
            self.declaredHeight = declaredHeight
        }
    }

    /// The descriptor file (or folder) the description was read from.
    public var file: String
    /// The dialect it was read from.
    public var format: TextureAtlas.Format
    /// The page images it names, in the order frames refer to them.
    public var pages: [Page]
    /// Its frames, in the normalized model.
    public var frames: [AtlasFrame]
    /// Pixels per point the atlas was made for (TexturePacker's `meta.scale`, SpriteKit's `@2x`).
    public var scale: Double
    /// What the reader forgave in the descriptor's text (Windows line ends); ``allWarnings``
    /// adds what it finds in the frames.
    public var warnings: [AssetWarning] = []

    /// The largest coordinate or size, either sign, a descriptor may give: far past any real
    /// page, and small enough that sums of a few of them cannot overflow.
    public static let largestNumber = 1_000_000_000

    /// A description read from `file`.
    public init(file: String, format: TextureAtlas.Format, pages: [Page], frames: [AtlasFrame], scale: Double = 1) {
        self.file = file
        self.format = format
        self.pages = pages
        self.frames = frames
        self.scale = scale
    }

    /// Problems that need no page pixels: unknown pages, negative sizes, implausible original
    /// sizes and offsets, and frames outside their page where the page size is known
    /// (`pageSizes`, else declared). (Names given twice are warnings: ``allWarnings``.)
    public func problems(pageSizes: [(width: Int, height: Int)?] = []) -> [AtlasError] {
        var problems: [AtlasError] = []
        for frame in frames {
            if let detail = frame.sizeProblem { problems.append(.malformed(file: file, detail: detail)) }
            guard pages.indices.contains(frame.page) else {
                problems.append(.unknownPage(file: file, frame: frame.name, page: "#\(frame.page + 1)"))
                continue
            }
            let page = pages[frame.page]
            let known = frame.page < pageSizes.count ? pageSizes[frame.page] : nil
            let size = known ?? page.declaredWidth.flatMap { width in page.declaredHeight.map { (width, $0) } }
            let outside =
                frame.rect.width < 0 || frame.rect.height < 0
                || size.map { !frame.rect.isInside(width: $0.0, height: $0.1) } ?? (frame.rect.x < 0 || frame.rect.y < 0)
            if outside {
                problems.append(
                    .frameOutsidePage(
                        file: file, frame: frame.name, rect: frame.rect, page: page.path,
                        pageWidth: size?.0 ?? 0, pageHeight: size?.1 ?? 0))
            }
        }
        return problems
    }

    /// The page requests to load, in page order, carrying `options` (PNG options, for one).
    func pageRequests(options: AssetOptions) -> [AssetRequest] {
        pages.map { AssetRequest(path: $0.path, options: options) }
    }
}
