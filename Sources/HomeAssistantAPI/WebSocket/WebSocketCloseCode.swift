/// Which close status codes may travel on the wire (RFC 6455 §7.4), and what a client
/// answers to a server's close frame.
///
/// Pure: codes in, codes out.
public enum WebSocketCloseCode {
    /// Whether an endpoint may send `code` in a close frame: 1000-1003 and 1007-1011 of
    /// RFC 6455 §7.4.1, 1012-1014 registered with IANA since, and 3000-4999 for libraries
    /// and applications. 1004 is reserved; 1005, 1006 and 1015 are only for reporting,
    /// never sent (§7.4.1); anything below 1000 or from 5000 up is not a status code.
    public static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    /// The status code of the close frame that answers one the server sent with `received`:
    /// none for none (§5.5.1 lets the answer be empty), the same code when it is one that
    /// may be sent, and 1002 (protocol error) for one that may not (§7.4, §7.1.7).
    public static func answer(to received: UInt16?) -> UInt16? {
        guard let received else { return nil }
        return isSendable(received) ? received : 1002
    }
}
