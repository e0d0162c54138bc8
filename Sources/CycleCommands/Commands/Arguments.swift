import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCore
/// A small command-line reader in the shape of swift-argument-parser, written by hand
/// because no package can be fetched: `--name value`, `--name=value`, flags, and
/// positionals, with usage errors that exit 64.
public struct Arguments: Sendable {
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    public private(set) var positionals: [String] = []

    /// - Parameters:
    ///   - arguments: the words after the subcommand.
    ///   - valued: the option names (without `--`) that take a value.
    ///   - flags: the option names that take none.
    public init(_ arguments: [String], valued: Set<String>, flags allowedFlags: Set<String> = []) throws(CommandError) {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("--"), word.count > 2 else {
                positionals.append(word)
                continue
            }
            var name = String(word.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if allowedFlags.contains(name) {
                guard value == nil else { throw .usage("--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if value == nil {
                    guard index < arguments.count else { throw .usage("--\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                options[name] = value
            } else {
                throw .usage("unknown option --\(name)")
            }
        }
    }

    public func value(_ name: String) -> String? { options[name] }
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option, or a usage error naming the option and what it got.
    public func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(CommandError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("--\(name) expects a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A number option (`2`, `0.5`), or a usage error naming the option and what it got.
    public func number(_ name: String, in range: ClosedRange<Double>) throws(CommandError) -> Double? {
        guard let text = options[name] else { return nil }
        guard let number = Double(text), range.contains(number) else {
            throw .usage("--\(name) expects a number in \(NumberText.plain(range.lowerBound))...\(NumberText.plain(range.upperBound)), got '\(text)'")
        }
        return number
    }

    /// One of a fixed set of words, or a usage error listing them.
    public func choice(_ name: String, _ choices: [String], default fallback: String) throws(CommandError) -> String {
        guard let text = options[name] else { return fallback }
        guard choices.contains(text) else {
            throw .usage("--\(name) expects one of \(choices.joined(separator: "|")), got '\(text)'")
        }
        return text
    }
}
