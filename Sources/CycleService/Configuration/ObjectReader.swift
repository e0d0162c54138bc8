import CycleHistory
import HomeAssistantAPI
import CycleCore
/// Reads one JSON object of the configuration, naming the file and the key's path in
/// every error, and refusing keys it doesn't know (typos must not be silently ignored).
struct ObjectReader {
    let file: String
    let path: String
    private let fields: [String: JSONTree]

    init(_ tree: JSONTree, file: String, path: String, allowed: [String]) throws(ConfigurationError) {
        guard case .object(let fields) = tree else {
            throw Self.error(file: file, path: path, expected: "an object", found: tree)
        }
        self.file = file
        self.path = path
        self.fields = fields
        for key in fields.keys.sorted() where !allowed.contains(key) {
            // The value is never repeated: it may well be the token itself.
            if ["token", "access_token", "ha_token", "long_lived_token"].contains(key.lowercased()) {
                throw .config("\(file): '\(Self.join(path, key))' is not read: the token does not go in the configuration. "
                              + "Put it in a file of its own (chmod 600) and name that file in 'home_assistant.token_file', "
                              + "or set $HA_TOKEN")
            }
            let hint = allowed.first { Self.isNear($0, key) }.map { " (did you mean '\($0)'?)" }
                ?? "; known keys here: \(allowed.joined(separator: ", "))"
            throw .config("\(file): unknown key '\(Self.join(path, key))'\(hint)")
        }
    }

    func has(_ key: String) -> Bool { fields[key] != nil }

    /// How many keys the object has.
    var keyCount: Int { fields.count }

    /// The raw value, with null treated as absent.
    func tree(_ key: String) -> JSONTree? {
        guard let value = fields[key] else { return nil }
        if case .null = value { return nil }
        return value
    }

    func keyPath(_ key: String) -> String { Self.join(path, key) }

    func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let value = tree(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, "a string", value) }
        return text
    }

    func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let value = tree(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(key, "true or false", value) }
        return flag
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws(ConfigurationError) -> Double? {
        guard let value = tree(key) else { return nil }
        guard case .number(let number) = value, range.contains(number) else {
            throw mismatch(key, "a number from \(Self.show(range.lowerBound)) to \(Self.show(range.upperBound))", value)
        }
        return number
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let value = tree(key) else { return nil }
        guard case .number(let number) = value, number == number.rounded(), range.contains(Int(exactly: number) ?? Int.min) else {
            throw mismatch(key, "a whole number from \(range.lowerBound) to \(range.upperBound)", value)
        }
        return Int(number)
    }

    func stringList(_ key: String) throws(ConfigurationError) -> [String]? {
        guard let value = tree(key) else { return nil }
        if case .string(let single) = value { return [single] }
        guard case .array(let items) = value else { throw mismatch(key, "a list of strings", value) }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                throw Self.error(file: file, path: "\(keyPath(key))[\(index)]", expected: "a string", found: item)
            }
            strings.append(text)
        }
        return strings
    }

    func object(_ key: String, allowed: [String]) throws(ConfigurationError) -> ObjectReader? {
        guard let value = tree(key) else { return nil }
        return try ObjectReader(value, file: file, path: keyPath(key), allowed: allowed)
    }

    func mismatch(_ key: String, _ expected: String, _ found: JSONTree) -> ConfigurationError {
        Self.error(file: file, path: keyPath(key), expected: expected, found: found)
    }

    func invalid(_ key: String, _ problem: String) -> ConfigurationError {
        .config("\(file): '\(keyPath(key))' \(problem)")
    }

    static func error(file: String, path: String, expected: String, found: JSONTree) -> ConfigurationError {
        let shown: String
        switch found {
        case .string(let text): shown = "the string \"\(text.prefix(40))\""
        case .number(let number): shown = "the number \(show(number))"
        case .bool(let flag): shown = "\(flag)"
        default: shown = found.kindName
        }
        return .config("\(file): '\(path.isEmpty ? "(top level)" : path)' expects \(expected), found \(shown)")
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private static func show(_ number: Double) -> String {
        NumberText.plain(number)
    }

    /// A key one edit away (or a swap of two letters) is probably a typo of a known key.
    private static func isNear(_ known: String, _ typed: String) -> Bool {
        let a = Array(known), b = Array(typed)
        if a.count == b.count {
            let diffs = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            if diffs.count == 1 { return true }
            if diffs.count == 2, diffs[1] == diffs[0] + 1, a[diffs[0]] == b[diffs[1]], a[diffs[1]] == b[diffs[0]] { return true }
            return false
        }
        let (long, short) = a.count > b.count ? (a, b) : (b, a)
        guard long.count == short.count + 1 else { return false }
        for skip in long.indices where Array(long[..<skip] + long[(skip + 1)...]) == short { return true }
        return false
    }
}
