extension TileMap {
    /// How the map's tiles are laid out.
    public enum Orientation: String, Sendable, Hashable, CaseIterable, Codable {
        /// A rectangular grid.
        case orthogonal
        /// A diamond of diamond-shaped tiles.
        case isometric
        /// Diamond-shaped tiles in a rectangle, every other row or column shifted by half a tile.
        case staggered
        /// Hexagons, every other row or column shifted (``TileMap/staggerAxis``,
        /// ``TileMap/staggerIndex``, ``TileMap/hexSideLength``).
        case hexagonal
    }

    /// In which order a renderer draws the tiles (`renderorder`).
    public enum RenderOrder: String, Sendable, Hashable, CaseIterable, Codable {
        /// Rows left to right, from the top (the default).
        case rightDown = "right-down"
        /// Rows left to right, from the bottom.
        case rightUp = "right-up"
        /// Rows right to left, from the top.
        case leftDown = "left-down"
        /// Rows right to left, from the bottom.
        case leftUp = "left-up"
    }

    /// Which axis staggered and hexagonal maps shift along.
    public enum StaggerAxis: String, Sendable, Hashable, CaseIterable, Codable {
        /// Every other column is shifted.
        case x
        /// Every other row is shifted (the default).
        case y
    }

    /// Whether the odd or the even rows (or columns) are the shifted ones.
    public enum StaggerIndex: String, Sendable, Hashable, CaseIterable, Codable {
        /// The odd ones (the default).
        case odd
        /// The even ones.
        case even
    }
}
