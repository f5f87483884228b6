/// Long JSON arrays of tile IDs, taken out of a TMJ's text before Foundation parses the rest.
///
/// Tiled's JSON writes a layer's tiles as an array of numbers (`"data": [1, 2, 0, ...]`), and
/// `JSONSerialization` turns each into an `NSNumber`: 160,000 tiles took 62 ms to parse (and
/// `JSONDecoder` 18 ms), where the map's two 512x512 tileset images decode in 3.4 ms. So, before
/// the document goes to Foundation, each
/// array of at least ``shortest`` bytes that holds only unsigned integers without leading zeros,
/// outside any string, is replaced by a string naming it (``token``), and its text is read
/// as CSV is (``LayerData/jsonArray(_:)``): the same numbers, one pass. Anything else, including
/// an array this scan does not take, is Foundation's to parse.
final class JSONTileArrays {
    /// The text between each taken array's brackets, by number.
    private let arrays: [String]
    /// What a replaced array's string starts with (then its number): a control character, which
    /// a JSON document writes only escaped, and a number drawn for each document.
    private let token: String

    /// Arrays shorter than this stay in the document.
    static let shortest = 256

    private init(arrays: [String], token: String) {
        self.arrays = arrays
        self.token = token
    }

    /// `bytes` with its long arrays of tile IDs taken out, and what was taken.
    static func extract(_ bytes: [UInt8]) -> (json: [UInt8], taken: JSONTileArrays) {
        let nonce = UInt64.random(in: 0...UInt64.max)
        var json: [UInt8] = []
        var arrays: [String] = []
        bytes.withUnsafeBufferPointer { bytes in
            json.reserveCapacity(bytes.count)
            var index = 0, copied = 0, inString = false
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "["), let end = endOfTileIDs(bytes, from: index), end - index >= shortest {
                    json.append(contentsOf: bytes[copied..<index])
                    json.append(contentsOf: "\"\\u0001tiles-\(nonce)-\(arrays.count)\"".utf8)
                    arrays.append(String(decoding: bytes[(index + 1)..<end], as: UTF8.self))
                    index = end + 1
                    copied = index
                    continue
                }
                index += 1
            }
            json.append(contentsOf: bytes[min(copied, bytes.count)...])
        }
        return (json, JSONTileArrays(arrays: arrays, token: "\u{1}tiles-\(nonce)-"))
    }

    /// The text of the taken array a string names, if it names one.
    func array(named text: String) -> String? {
        guard text.hasPrefix(token), let number = Int(text.dropFirst(token.count)), arrays.indices.contains(number) else { return nil }
        return arrays[number]
    }

    /// Where the `]` closing the array that opens at `start` is, if the array holds only
    /// unsigned integers without leading zeros, commas between them, and white space.
    private static func endOfTileIDs(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        enum State { case beforeValue, inNumber, leadingZero, afterValue }
        var state = State.beforeValue, values = 0
        for index in (start + 1)..<bytes.count {
            switch (bytes[index], state) {
            case (UInt8(ascii: "0"), .beforeValue): state = .leadingZero
            case (UInt8(ascii: "1")...UInt8(ascii: "9"), .beforeValue): state = .inNumber
            case (UInt8(ascii: "0")...UInt8(ascii: "9"), .inNumber): break
            case (0x20, _), (0x0A, _), (0x0D, _), (0x09, _): if state != .beforeValue { state = .afterValue }
            case (UInt8(ascii: ","), .inNumber), (UInt8(ascii: ","), .leadingZero), (UInt8(ascii: ","), .afterValue):
                state = .beforeValue
                values += 1
            case (UInt8(ascii: "]"), .beforeValue): return values == 0 ? index : nil
            case (UInt8(ascii: "]"), _): return index
            default: return nil
            }
        }
        return nil
    }
}
