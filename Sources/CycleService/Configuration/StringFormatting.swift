import CycleHistory
import HomeAssistantAPI
import CycleCore
extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line ends
    /// (FoundationEssentials has no `trimmingCharacters`).
    func trimmedWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// The text padded with spaces (or cut) to exactly `width` characters, for columns
    /// (FoundationEssentials has no `padding(toLength:)`).
    public func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
