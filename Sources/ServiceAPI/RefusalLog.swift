/// Which refused API requests get a log line: a client address's first refusal, then at
/// most one line per `interval` for it, saying how many were refused unlogged since its
/// last line. Anyone who can reach the port can be refused, so what they make the service
/// write is bounded: a line a minute per address, for at most `clientLimit` addresses
/// at once; past that, new addresses share one line a minute (``others``). An address
/// whose last line is older than `interval` may be forgotten to make room: its next
/// refusal would be logged anyway. Pure: the caller gives the time.
struct RefusalLog: Sendable {
    /// A refusal to log.
    struct Line: Sendable, Equatable {
        /// The client address, or ``RefusalLog/others``.
        var client: String
        /// Refusals of the same client since its previous line that were not logged.
        var unlogged: Int
    }

    private struct Client {
        var lastLine: ContinuousClock.Instant
        var unlogged: Int
    }

    let interval: Duration
    let clientLimit: Int
    private var clients: [String: Client] = [:]

    init(interval: Duration = .seconds(60), clientLimit: Int = 256) {
        self.interval = interval
        self.clientLimit = clientLimit
    }

    /// The name the addresses past `clientLimit` share.
    static let others = "other addresses"

    /// How many addresses are remembered.
    var remembered: Int { clients.count }

    /// A request from `client` was refused at `now`: the line to log, or nil.
    mutating func refused(_ client: String, at now: ContinuousClock.Instant) -> Line? {
        var client = client
        if clients[client] == nil && clients.count >= clientLimit {
            clients = clients.filter { now - $0.value.lastLine < interval || $0.key == Self.others }
            if clients.count >= clientLimit { client = Self.others }
        }
        if var known = clients[client] {
            guard now - known.lastLine >= interval else {
                known.unlogged += 1
                clients[client] = known
                return nil
            }
            clients[client] = Client(lastLine: now, unlogged: 0)
            return Line(client: client, unlogged: known.unlogged)
        }
        clients[client] = Client(lastLine: now, unlogged: 0)
        return Line(client: client, unlogged: 0)
    }
}
