/// Entry names in zip archives: UTF-8 when the archive says so (general purpose flag 11) or when
/// the bytes are valid UTF-8, otherwise IBM code page 437, the format's original encoding.
enum ZipName {
    static func decode(_ bytes: ArraySlice<UInt8>, isUTF8: Bool) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        if isUTF8 { return String(decoding: bytes, as: UTF8.self) }  // invalid sequences become U+FFFD
        var text = ""
        text.unicodeScalars.reserveCapacity(bytes.count)
        for byte in bytes {
            text.unicodeScalars.append(byte < 0x80 ? Unicode.Scalar(byte) : codePage437High[Int(byte) - 0x80])
        }
        return text
    }

    /// Code page 437's characters for bytes 0x80 to 0xFF.
    private static let codePage437High: [Unicode.Scalar] = Array(
        ("ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀"
            + "αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{00A0}").unicodeScalars)
}
