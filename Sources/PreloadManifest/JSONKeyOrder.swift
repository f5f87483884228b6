import Preload

/// The order of an object's keys as written in a JSON document, which `JSONSerialization`
/// forgets (its dictionaries are unordered) and a manifest needs: groups load, and Phaser's
/// loader walks a pack's sections, in the order the file gives them.
///
/// Read with ``JSONMembers`` after `JSONSerialization` accepted the document: the keys met at
/// one depth inside the object reached by following `path` from the top level.
enum JSONKeyOrder {
    /// The keys of the object at `path` (keys of nested objects, from the top level), in document
    /// order; empty if there is no such object.
    static func keys(in document: [UInt8], at path: [String] = []) -> [String] {
        guard var members = JSONMembers(document) else { return [] }
        for key in path {
            var found: JSONMembers?
            while let next = members.nextKey() {
                if next == key {
                    found = members.nested()
                    break
                }
            }
            guard let inner = found else { return [] }
            members = inner
        }
        var keys: [String] = []
        while let key = members.nextKey() { keys.append(key) }
        return keys
    }
}
