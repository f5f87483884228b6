/// An image's size as astcenc takes it (`unsigned int` sides): nil for a negative side or one of
/// 2^32 pixels or more.
struct ASTCDimensions {
    let x: UInt32
    let y: UInt32

    init?(width: Int, height: Int) {
        guard let x = UInt32(exactly: width), let y = UInt32(exactly: height) else { return nil }
        self.x = x
        self.y = y
    }
}
