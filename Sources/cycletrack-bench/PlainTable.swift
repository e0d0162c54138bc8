/// A terminal table: a header, a rule, and columns two spaces apart; the first
/// column left-aligned, the others right-aligned unless told otherwise.
struct PlainTable {
    let titles: [String]
    var leftAligned: Set<Int> = [0]
    var rows: [[String]] = []

    init(_ titles: [String], leftAligned: Set<Int> = [0]) {
        self.titles = titles
        self.leftAligned = leftAligned
    }

    var text: String {
        var widths = titles.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, width) in widths.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                let padding = String(repeating: " ", count: width - cell.count)
                parts.append(leftAligned.contains(index) ? cell + padding : padding + cell)
            }
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(titles), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
