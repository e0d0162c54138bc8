/// Why the API key could not be read or made: the file and what was wrong.
public struct APIKeyError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
