extension HTTPClient {
    /// Limits and TLS settings of one ``HTTPClient``.
    public struct Configuration: Sendable {
        /// Seconds allowed for the TCP (and TLS) connection, 5 by default.
        public var connectTimeout: Double
        /// Seconds allowed for the whole exchange, connection included; 15 by default.
        public var totalTimeout: Double
        /// A PEM file of CA certificates to trust instead of the system's; `nil` uses the system store.
        /// Verification of the peer and of the host name is always on.
        public var caFile: String?
        /// The largest response body accepted, 4 MiB by default; a larger one fails with `.tooLarge`.
        public var maxResponseBytes: Int
        /// An explicit proxy URL. `nil` means no proxy at all: the environment's
        /// `http_proxy` / `https_proxy` are ignored, so the token goes only to the
        /// configured Home Assistant, never to a proxy nobody configured for cycletrack.
        public var proxy: String?

        /// The defaults: 5 s connect, 15 s total, system CAs, 4 MiB, no proxy.
        public init(
            connectTimeout: Double = 5,
            totalTimeout: Double = 15,
            caFile: String? = nil,
            maxResponseBytes: Int = 4 * 1024 * 1024,
            proxy: String? = nil
        ) {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.caFile = caFile
            self.maxResponseBytes = maxResponseBytes
            self.proxy = proxy
        }
    }
}
