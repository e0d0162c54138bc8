import CycleCore
import FoundationEssentials

/// What Supernotify says about its deliveries.
public enum SupernotifyDeliveries: Sendable, Equatable {
    /// The names of the deliveries its configuration defines, sorted.
    case listed([String])
    /// It can't say, and why (an older Supernotify, an HA that can't return the answer, ...).
    case cannotSay(String)
}

extension HomeAssistantClient {
    /// The deliveries Supernotify's configuration defines, from its
    /// `supernotify.enquire_configuration` action: through the REST API
    /// (`POST /api/services/...?return_response`, HA 2024.8 and later) and, when HA
    /// refuses that, through the WebSocket API's `call_service` with `return_response`.
    ///
    /// The answer's shape is Supernotify's own (rhizomatics/supernotify,
    /// `custom_components/supernotify/notify.py`, `supplemental_action_enquire_configuration`):
    /// an object whose `delivery` maps each configured delivery's name to its settings.
    /// The REST API wraps it as `{"changed_states": [...], "service_response": {...}}`,
    /// the WebSocket API as `{"result": {"response": {...}}}`.
    public func supernotifyDeliveries() async -> SupernotifyDeliveries {
        let path = "/api/services/supernotify/enquire_configuration?return_response"
        do {
            let response = try await request(.post, path, body: Array("{}".utf8))
            let answer = try decode(EnquiryAnswer.self, from: response, path: path,
                                    expected: "a JSON object with service_response")
            return answer.serviceResponse?.delivery.map { .listed($0.keys.sorted()) }
                ?? .cannotSay("its configuration lists no deliveries")
        } catch {
            switch error {
            case .badRequest, .server, .notFound, .unexpectedStatus:
                break
            default:
                return .cannotSay(error.description)
            }
            do {
                guard let names = try await SupernotifyEnquiry.deliveries(baseURL: baseURL, token: token, configuration: http.configuration) else {
                    return .cannotSay("its configuration lists no deliveries")
                }
                return .listed(names)
            } catch let failure {
                return .cannotSay("HA answered \(error.description) over REST; over WebSocket: \(failure.description)")
            }
        }
    }

    private struct EnquiryAnswer: Decodable {
        var serviceResponse: Configuration?

        enum CodingKeys: String, CodingKey {
            case serviceResponse = "service_response"
        }

        struct Configuration: Decodable {
            var delivery: [String: Anything]?
        }
    }

    /// Any JSON value, read past and kept nowhere.
    private struct Anything: Decodable {
        init(from decoder: Decoder) throws {}
    }
}
