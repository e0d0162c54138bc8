/// A request the pages refuse: a status (4xx, or 503 while there is no history) and
/// what was expected and found, shown on a small error page.
struct PageError: Error, Equatable {
    var status: Int
    var message: String

    static func badRequest(_ message: String) -> PageError { PageError(status: 400, message: message) }
    static func notFound(_ message: String) -> PageError { PageError(status: 404, message: message) }
}
