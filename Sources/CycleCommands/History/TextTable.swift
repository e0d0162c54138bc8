import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
/// A table for a terminal: a header row and aligned columns two spaces apart, text
/// left-aligned, numbers right-aligned, no trailing spaces.
struct TextTable {
    enum Alignment { case left, right }

    let columns: [(title: String, alignment: Alignment)]
    var rows: [[String]] = []

    init(_ columns: [(title: String, alignment: Alignment)]) {
        self.columns = columns
    }

    var text: String {
        var widths = columns.map(\.title.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        let lines = ([columns.map(\.title)] + rows).map { row in
            zip(row.indices, row).map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return columns[index].alignment == .left ? cell + padding : padding + cell
            }
            .joined(separator: "  ")
            .trimmingTrailingSpaces()
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
