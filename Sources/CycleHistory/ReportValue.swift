import CycleCore
/// One value of a `query` or `stats` record, written the same way wherever it appears:
/// in JSON as a number, string or null; in CSV as text, empty for null.
public enum ReportValue: Equatable, Sendable {
    case null
    case int(Int)
    case number(Double)
    case string(String)

    /// A record: keys in output order.
    public typealias Record = [(key: String, value: ReportValue)]

    public var json: String {
        switch self {
        case .null: "null"
        case .int(let value): String(value)
        case .number(let value): value.isFinite ? shortest(value) : "null"
        case .string(let value): Self.jsonString(value)
        }
    }

    public var csv: String {
        switch self {
        case .null: ""
        case .int(let value): String(value)
        case .number(let value): value.isFinite ? shortest(value) : ""
        case .string(let value): Self.csvField(value)
        }
    }

    /// `12` for a whole number, else Swift's shortest round-tripping text (`0.82`).
    private func shortest(_ value: Double) -> String {
        NumberText.plain(value)
    }

    public static func jsonString(_ text: String) -> String { JSONValue.quoted(text) }

    /// RFC 4180: a field holding a comma, a quote, CR or LF is quoted, its quotes doubled.
    public static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// A JSON array of `records`, one object per line.
    public static func jsonDocument(_ records: [Record]) -> String {
        guard !records.isEmpty else { return "[]\n" }
        let lines = records.map { record in
            "  {" + record.map { "\(jsonString($0.key)): \($0.value.json)" }.joined(separator: ", ") + "}"
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    /// A CSV document: a header row of `columns`, then one row per record. Lines end
    /// in LF rather than RFC 4180's CRLF: the output is for shells and scripts on
    /// Unix, and every CSV reader accepts LF.
    public static func csvDocument(columns: [String], _ records: [Record]) -> String {
        var text = columns.map(csvField).joined(separator: ",") + "\n"
        for record in records {
            text += record.map(\.value.csv).joined(separator: ",") + "\n"
        }
        return text
    }
}
