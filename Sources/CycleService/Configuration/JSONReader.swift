import CycleCore

/// Reads a JSON document into a `JSONTree`, strictly (RFC 8259), for the configuration:
/// a syntax error says at which line and column, and a key given twice in one object is
/// an error rather than a silent "the last one wins".
struct JSONReader {
    /// What is wrong and where (1-based line and column, counted in characters).
    struct Failure: Error, Sendable, Equatable {
        var line: Int
        var column: Int
        var message: String
        /// A key given twice, rather than a syntax error.
        var duplicate = false
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    /// Parses the whole of `bytes` (a UTF-8 byte order mark is allowed).
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONTree {
        var reader = JSONReader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3; reader.lineStart = 3 }
        reader.skipSpace()
        let value = try reader.value(path: "")
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.failure("expected the end of the document after the value, found \(reader.found())") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var column: Int {
        String(decoding: bytes[lineStart..<min(index, bytes.count)], as: UTF8.self).count + 1
    }

    private func failure(_ message: String) -> Failure {
        Failure(line: line, column: column, message: message)
    }

    /// What is at the current position, for "found ..." in an error.
    private func found() -> String {
        guard index < bytes.count else { return "the end of the file" }
        let rest = String(decoding: bytes[index..<min(bytes.count, index + 12)], as: UTF8.self)
        let word = rest.prefix { !$0.isWhitespace }
        return "'\(word.isEmpty ? String(rest.prefix(1)) : String(word.prefix(10)))'"
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func value(path: String) throws(Failure) -> JSONTree {
        guard index < bytes.count else { throw failure("expected a value, found the end of the file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(path: path)
        case UInt8(ascii: "["): return try array(path: path)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "'"): throw failure("expected a value, found a single quote: JSON strings take double quotes")
        default: throw failure("expected a value (an object, list, string, number, true, false or null), found \(found())")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("expected a value, found \(found())")
        }
        index += expected.count
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= 256 else { throw failure("nested more than 256 levels deep") }
    }

    private mutating func object(path: String) throws(Failure) -> JSONTree {
        try enter()
        index += 1
        var fields: [String: JSONTree] = [:]
        var seenAt: [String: (line: Int, column: Int)] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(fields)
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    throw failure("expected another key after ',', found '}' (a trailing comma is not allowed in JSON)")
                }
                throw failure("expected a key in double quotes, found \(found())")
            }
            let position = (line: line, column: column)
            let key = try string()
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            if let first = seenAt[key] {
                throw Failure(line: position.line, column: position.column,
                              message: "the key '\(keyPath)' appears twice in one object (first at line \(first.line), column \(first.column)); give it once",
                              duplicate: true)
            }
            seenAt[key] = position
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after the key \"\(key)\", found \(found())")
            }
            index += 1
            skipSpace()
            fields[key] = try value(path: keyPath)
            skipSpace()
            guard index < bytes.count else { throw failure("expected ',' or '}' to go on with the object, found the end of the file") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipSpace()
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else {
                throw failure("expected ',' or '}' after the value of \"\(key)\", found \(found())")
            }
            index += 1
            depth -= 1
            return .object(fields)
        }
    }

    private mutating func array(path: String) throws(Failure) -> JSONTree {
        try enter()
        index += 1
        var items: [JSONTree] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw failure("expected another item after ',', found ']' (a trailing comma is not allowed in JSON)")
            }
            items.append(try value(path: "\(path)[\(items.count)]"))
            skipSpace()
            guard index < bytes.count else { throw failure("expected ',' or ']' to go on with the list, found the end of the file") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipSpace()
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']' after a list item, found \(found())") }
            index += 1
            depth -= 1
            return .array(items)
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), bytes.count - index >= 6,
                       bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("expected the second half of a \\u surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw failure("\\u\(String(code, radix: 16)) is not a character") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    index -= 2
                    throw failure("expected an escape such as \\n, \\\" or \\\\ in a string, found \(found())")
                }
            case 0x0A:
                throw failure("expected '\"' to end the string before the end of the line")
            case 0x00..<0x20:
                throw failure("a control character in a string must be written as an escape (\\t, \\u0001)")
            default:
                scalars.append(byte)
                index += 1
            }
        }
        throw failure("expected '\"' to end the string, found the end of the file")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw failure("expected four hexadecimal digits after \\u")
        }
        index += 4
        return code
    }

    private mutating func number() throws(Failure) -> Double {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leading = index
        guard digits() > 0 else { throw failure("expected a digit in the number, found \(found())") }
        if bytes[leading] == UInt8(ascii: "0"), index - leading > 1 {
            index = leading
            throw failure("a number may not start with 0 (write 7, not 07)")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("expected a digit after the decimal point, found \(found())") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent, found \(found())") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            index = start
            throw failure("the number is too large")
        }
        return value
    }
}
