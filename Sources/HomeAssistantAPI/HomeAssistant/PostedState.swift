import CycleCore

/// A state cycletrack sets in HA with `POST /api/states/<entity_id>`: the state and its
/// attributes, as a value; the JSON body is made from it when it is sent.
public struct PostedState: Sendable, Equatable {
    public var state: JSONValue
    public var attributes: JSONObject

    public init(state: JSONValue, attributes: JSONObject) {
        self.state = state
        self.attributes = attributes
    }

    /// `{"state": …, "attributes": {…}}`, as HA's REST API takes it.
    public var body: String {
        JSONObject([("state", state), ("attributes", .object(attributes))]).compactJSON()
    }
}

/// An event cycletrack fires on HA's bus with `POST /api/events/<type>`: its type and
/// its data, as a value.
public struct HomeAssistantEvent: Sendable, Equatable {
    /// `cycletrack_cycle_started`, …: letters, digits and `_` (checked when it is sent).
    public var type: String
    public var data: JSONObject

    public init(type: String, data: JSONObject) {
        self.type = type
        self.data = data
    }
}
