import CycleCore
import FoundationEssentials

/// The JSON shapes of HA's WebSocket messages that the session reads.
extension HomeAssistantSession {
    struct Envelope: Decodable {
        var type: String
        var id: Int?
        var success: Bool?
        var error: ErrorBody?
        var ha_version: String?
        var message: String?
    }

    struct ErrorBody: Decodable {
        var code: String?
        var message: String?
    }

    struct RegistryEnvelope: Decodable {
        struct Event: Decodable {
            struct Data: Decodable { var action: String? }
            var data: Data?
        }
        var event: Event
    }

    struct EntitiesEnvelope: Decodable {
        var event: EntitiesDiff
    }

    /// `{"a": {id: full}, "c": {id: {"+": …, "-": …}}, "r": [id]}` (HA's
    /// `websocket_api/messages.py`, `_state_diff_event` and `compressed_state_dict_add`).
    struct EntitiesDiff: Decodable {
        struct Full: Decodable {
            var s: String
            var a: [String: AttributeValue]?
        }
        struct Change: Decodable {
            struct Additions: Decodable {
                var s: String?
                var a: [String: AttributeValue]?
            }
            struct Removals: Decodable {
                var a: [String]?
            }
            var plus: Additions?
            var minus: Removals?

            enum CodingKeys: String, CodingKey {
                case plus = "+"
                case minus = "-"
            }
        }
        var a: [String: Full]?
        var c: [String: Change]?
        var r: [String]?
    }

    /// An attribute's value: only strings matter here (unit, device class); anything else is skipped.
    enum AttributeValue: Decodable {
        case string(String)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .string(text)
            } else {
                self = .other
            }
        }

        var string: String? {
            if case .string(let text) = self { return text }
            return nil
        }
    }

    /// Any JSON value, skipped.
    struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
