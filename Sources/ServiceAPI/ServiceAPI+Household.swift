import CycleCore
import CycleService
import FoundationEssentials
import HistoryWeb

/// `/api/v1/household` and `/api/v1/people/{entity}` (docs/API.md, "The household"): the
/// household's quiet hours and each person's kinds, quiet hours and language in effect,
/// with their sources, and changing them.
extension ServiceAPI {
    /// The scope a settings path changes: `""` for `household/settings`, the person's
    /// entity for `people/{entity}/settings`; nil for any other path.
    static func householdSettings(_ route: [String]) -> String? {
        if route == ["household", "settings"] { return "" }
        if route.count == 3, route[0] == "people", route[2] == "settings" { return route[1] }
        return nil
    }

    func readHousehold(_ route: [String], path: String) -> HistoryResponse {
        guard let household = link.household() else {
            return Self.error(503, "starting", "the service is starting; try again in a moment")
        }
        switch route.count {
        case 1 where route[0] == "household":
            return Self.json(APIJSON.household(household))
        case 2 where route[0] == "people":
            guard let person = household.person(route[1]) else { return Self.unknownPerson(route[1]) }
            return Self.json(APIJSON.person(person))
        default:
            if let allowed = Self.allowed(route) {
                return Self.error(405, "method_not_allowed", "\(path) takes \(allowed), not GET", headers: [("Allow", allowed)])
            }
            return Self.error(404, "not_found", "no such API path: \(path)")
        }
    }

    func changeHousehold(_ route: [String], body: [UInt8]) -> HistoryResponse {
        let scope = Self.householdSettings(route) ?? ""
        let change: DeliveryChange
        do {
            change = scope.isEmpty ? .household(try HouseholdJSON.householdChange(body))
                : .person(scope, try HouseholdJSON.personChange(body))
        } catch {
            return Self.error(400, "bad_request", error.message)
        }
        return answer(link.submit(.changeDelivery(change)), id: scope, success: 200)
    }

    static func unknownPerson(_ entity: String) -> HistoryResponse {
        error(404, "unknown_person", "no person '\(entity)' is configured (the configuration's 'people'; GET /api/v1/household lists them)")
    }
}

extension APIJSON {
    static func household(_ household: HouseholdSnapshot) -> JSONObject {
        JSONObject([
            ("settings", .object(household.settings)), ("sources", sources(household.sources)),
            ("languages", .array(household.languages.map(JSONValue.string))),
            ("people", .array(household.people.map { .object(person($0)) })),
        ])
    }

    static func person(_ person: HouseholdSnapshot.Person) -> JSONObject {
        JSONObject([
            ("entity", .string(person.entity)), ("target", .array(person.target.map(JSONValue.string))),
            ("settings", .object(person.settings)), ("sources", sources(person.sources)),
        ])
    }

    private static func sources(_ sources: [String: HouseholdSnapshot.Source]) -> JSONValue {
        .object(JSONObject(sources.keys.sorted().map { ($0, .string(sources[$0]?.rawValue ?? "default")) }))
    }
}
