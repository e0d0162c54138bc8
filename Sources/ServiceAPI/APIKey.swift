import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The local API's bearer key (docs/API.md, "Auth"): 32 random bytes as 64 hex
/// characters, made on the first start and kept in `cycletrack.api-key` beside the
/// history database, mode 0600. Never logged; compared in constant time.
public struct APIKey: Sendable {
    /// The key's file name, in the database's folder.
    public static let fileName = "cycletrack.api-key"

    let value: String

    /// The key file for a database path.
    public static func path(besideDatabase database: String) -> String {
        guard let slash = database.lastIndex(of: "/") else { return fileName }
        let folder = database[..<slash]
        return (folder.isEmpty ? "" : String(folder)) + "/" + fileName
    }

    /// Reads the key at `path`; nil when the file does not exist. A file that is not a key is an error.
    public static func read(_ path: String) throws(APIKeyError) -> APIKey? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw APIKeyError("\(path): cannot be read (expected the API key, 64 hex characters)") }
            return nil
        }
        let text = String(String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace })
        guard text.count == 64, text.allSatisfy(\.isHexDigit) else {
            throw APIKeyError("\(path): expected the API key, 64 hex characters, found \(text.count) characters; delete the file to make a new key")
        }
        return APIKey(value: text.lowercased())
    }

    /// The key at `path`, made (and written 0600) when there is none yet.
    public static func loadOrCreate(_ path: String) throws(APIKeyError) -> (key: APIKey, created: Bool) {
        if let key = try read(path) { return (key, false) }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = bytes.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
        // O_EXCL: two starts at once don't overwrite each other's key; the loser reads the winner's.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST, let key = try read(path) { return (key, false) }
            throw APIKeyError("\(path): cannot create the API key file (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        let line = Array((text + "\n").utf8)
        guard write(descriptor, line, line.count) == line.count, fsync(descriptor) == 0 else {
            throw APIKeyError("\(path): cannot write the API key file (\(String(cString: strerror(errno))))")
        }
        return (APIKey(value: text), true)
    }

    /// The key as text, for `cycletrack api-key` and the Supervisor's discovery only.
    public var text: String { value }

    /// Whether an `Authorization` header carries this key (`Bearer <key>`), compared in
    /// constant time over the key's length.
    public func accepts(authorization header: String?) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let given = Array(header.dropFirst(7).utf8)
        let expected = Array(value.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
