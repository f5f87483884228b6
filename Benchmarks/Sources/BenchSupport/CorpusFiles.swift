import ArgumentParser
import Foundation

/// The `.png` files below `directory`, recursively, sorted, as paths under it.
public func pngFiles(under directory: String) throws -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else {
        throw ValidationError("cannot read \(directory)")
    }
    var files: [String] = []
    while let relative = walker.nextObject() as? String {
        if relative.lowercased().hasSuffix(".png") { files.append(directory + "/" + relative) }
    }
    return files.sorted()
}

/// `strings` as the C array of C strings the bare loops take, for the duration of `body`.
public func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { body($0.baseAddress!) }
}
