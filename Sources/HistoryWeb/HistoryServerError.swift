/// Why the history page could not be served: a bad listen address or allow list, or
/// a port libmicrohttpd could not bind. Says what was expected and what was found.
public struct HistoryServerError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
