"""The options flow: the sidebar panel, the service's quiet hours and people (docs/API.md, "The household"), and each washer's dryer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import probatio

from homeassistant.config_entries import (
    SOURCE_HASSIO,
    ConfigFlowResult,
    OptionsFlowWithReload,
)
from homeassistant.helpers.selector import (
    SelectOptionDict,
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
    TimeSelector,
)

from .client import ApiError, CycletrackClient, CycletrackError
from .const import CONF_PANEL, LOGGER
from .models import Appliance

KINDS = ["start", "progress", "end", "reminder"]
CONF_ENABLED = "enabled"
CONF_START = "start"
CONF_END = "end"
CONF_PERSON = "person"
CONF_KINDS = "kinds"
CONF_QUIET = "quiet_hours"
CONF_LANGUAGE = "language"
# A person's quiet hours: the household's (none of their own), none at all, or their own window.
QUIET_HOUSEHOLD, QUIET_OFF, QUIET_OWN = "household", "off", "own"
# A person's language: the household's texts, or a built-in set.
LANGUAGE_HOUSEHOLD = "household"
DEFAULT_WINDOW = ("22:00", "07:00")
CONF_APPLIANCE = "appliance"
# An appliance's `dryer` (docs/PUSHES.md, "Washer and dryer"): automatic, none, or another appliance's id.
CONF_DRYER = "dryer"
DRYER_WORDS = ["auto", "off"]


def _window(text: str | None) -> tuple[str, str] | None:
    """`22:00-07:00` as (start, end); None for `off` or none."""
    if not text or "-" not in text:
        return None
    start, _, end = text.partition("-")
    return start, end


def _clock(value: str) -> str:
    """Return a time selector's `HH:MM:SS` as the API's `HH:MM`."""
    return value[:5]


def _select(options: list[str], key: str, *, multiple: bool = False) -> SelectSelector:
    return SelectSelector(
        SelectSelectorConfig(
            options=options, multiple=multiple, translation_key=key,
            mode=SelectSelectorMode.LIST if multiple else SelectSelectorMode.DROPDOWN,
        )
    )


class CycletrackOptionsFlow(OptionsFlowWithReload):
    """What the integration shows, and the service's household settings.

    The history page in the sidebar; the household-wide quiet hours and each configured
    person's kinds, quiet hours and language.

    The service keeps those (the history database, over its configuration) and applies a
    change at once; each appliance's settings are its own number and switch entities.
    """

    def __init__(self) -> None:
        """Nothing read from the service yet."""
        self._household: dict[str, Any] | None = None
        self._person: str | None = None
        # The appliances whose dryer the service takes (a service before it has none).
        self._appliances: dict[str, Appliance] = {}
        self._appliance: str | None = None

    @property
    def _client(self) -> CycletrackClient:
        client: CycletrackClient = self.config_entry.runtime_data.client
        return client

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Return a menu: the sidebar, and (when the service has them) quiet hours, the people, washer and dryer."""
        try:
            self._household = await self._client.async_get_household()
            # The appliances whose dryer the service takes: those whose settings have one.
            self._appliances = {
                a.id: a for a in await self._client.async_get_appliances()
                if isinstance(a.settings.values.get(CONF_DRYER), str)
            }
        except ApiError as err:
            if err.status != 404:
                LOGGER.warning("cycletrack's household settings can't be read: %s", err)
            self._household = None  # a service before the household API: the sidebar only
        except CycletrackError as err:
            LOGGER.warning("cycletrack's household settings can't be read: %s", err)
            self._household = None
        if self._household is None:
            return await self.async_step_sidebar()
        options = ["sidebar", "quiet_hours"]
        if self._household["people"]:
            options.append("people")
        if len(self._appliances) >= 2:
            options.append("laundry")
        return self.async_show_menu(step_id="init", menu_options=options)

    async def async_step_sidebar(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Return the history page as a sidebar panel."""
        if user_input is not None:
            return self.async_create_entry(data={**self.config_entry.options, **user_input})
        default = self.config_entry.options.get(CONF_PANEL, self.config_entry.source != SOURCE_HASSIO)
        return self.async_show_form(
            step_id="sidebar",
            data_schema=probatio.Schema({probatio.Required(CONF_PANEL, default=default): bool}),
        )

    async def async_step_quiet_hours(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Show the household's quiet hours: on or off, from and until."""
        assert self._household is not None
        errors: dict[str, str] = {}
        placeholders = {"message": ""}
        if user_input is not None:
            value = (
                f"{_clock(user_input[CONF_START])}-{_clock(user_input[CONF_END])}" if user_input[CONF_ENABLED] else "off"
            )
            done, errors, placeholders = await self._async_patch(None, {CONF_QUIET: value})
            if done:
                return self.async_create_entry(data=dict(self.config_entry.options))
        current = _window(self._household["settings"][CONF_QUIET])
        start, end = current or DEFAULT_WINDOW
        schema = probatio.Schema(
            {
                probatio.Required(CONF_ENABLED, default=current is not None): bool,
                probatio.Required(CONF_START, default=f"{start}:00"): TimeSelector(),
                probatio.Required(CONF_END, default=f"{end}:00"): TimeSelector(),
            }
        )
        return self.async_show_form(
            step_id="quiet_hours", data_schema=schema, errors=errors,
            description_placeholders={**placeholders, "source": self._household["sources"][CONF_QUIET]},
        )

    async def async_step_people(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Which person to change."""
        assert self._household is not None
        if user_input is not None:
            self._person = user_input[CONF_PERSON]
            return await self.async_step_person()
        entities = [person["entity"] for person in self._household["people"]]
        return self.async_show_form(
            step_id="people",
            data_schema=probatio.Schema(
                {probatio.Required(CONF_PERSON, default=entities[0]): SelectSelector(SelectSelectorConfig(options=entities))}
            ),
        )

    async def async_step_person(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """One person: the alerts they get, their quiet hours, their language."""
        assert self._household is not None and self._person is not None
        person = next(p for p in self._household["people"] if p["entity"] == self._person)
        errors: dict[str, str] = {}
        placeholders = {"message": ""}
        if user_input is not None:
            done, errors, placeholders = await self._async_patch(self._person, _person_changes(user_input))
            if done:
                return self.async_create_entry(data=dict(self.config_entry.options))
        settings = person["settings"]
        own = _window(settings[CONF_QUIET])
        quiet = QUIET_OWN if own else QUIET_OFF if settings[CONF_QUIET] == "off" else QUIET_HOUSEHOLD
        start, end = own or _window(self._household["settings"][CONF_QUIET]) or DEFAULT_WINDOW
        languages = [LANGUAGE_HOUSEHOLD, *self._household["languages"]]
        schema = probatio.Schema(
            {
                probatio.Required(CONF_KINDS, default=settings[CONF_KINDS]): _select(KINDS, CONF_KINDS, multiple=True),
                probatio.Required(CONF_QUIET, default=quiet): _select([QUIET_HOUSEHOLD, QUIET_OFF, QUIET_OWN], CONF_QUIET),
                probatio.Required(CONF_START, default=f"{start}:00"): TimeSelector(),
                probatio.Required(CONF_END, default=f"{end}:00"): TimeSelector(),
                probatio.Required(CONF_LANGUAGE, default=settings[CONF_LANGUAGE] or LANGUAGE_HOUSEHOLD): _select(
                    languages, CONF_LANGUAGE
                ),
            }
        )
        return self.async_show_form(
            step_id="person", data_schema=schema, errors=errors,
            description_placeholders={**placeholders, "person": self._person},
        )

    async def async_step_laundry(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Which appliance's dryer to change."""
        if user_input is not None:
            self._appliance = user_input[CONF_APPLIANCE]
            return await self.async_step_appliance()
        choices = [SelectOptionDict(value=a.id, label=a.name) for a in self._appliances.values()]
        return self.async_show_form(
            step_id="laundry",
            data_schema=probatio.Schema(
                {probatio.Required(CONF_APPLIANCE, default=choices[0]["value"]): SelectSelector(
                    SelectSelectorConfig(options=choices, mode=SelectSelectorMode.DROPDOWN)
                )}
            ),
        )

    async def async_step_appliance(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """One appliance's dryer: automatic, off, or another appliance."""
        assert self._appliance is not None
        appliance = self._appliances[self._appliance]
        errors: dict[str, str] = {}
        placeholders = {"message": ""}
        if user_input is not None:
            done, errors, placeholders = await self._async_apply(
                lambda: self._client.async_update_settings(appliance.id, {CONF_DRYER: user_input[CONF_DRYER]})
            )
            if done:
                return self.async_create_entry(data=dict(self.config_entry.options))
        current = str(appliance.settings.values[CONF_DRYER])
        others = [a for a in self._appliances.values() if a.id != appliance.id]
        choices = [SelectOptionDict(value=word, label=word) for word in DRYER_WORDS]
        choices += [SelectOptionDict(value=a.id, label=a.name) for a in others]
        shown = next((c["label"] for c in choices if c["value"] == current), current)
        return self.async_show_form(
            step_id="appliance", errors=errors,
            data_schema=probatio.Schema(
                {probatio.Required(CONF_DRYER, default=current): SelectSelector(
                    SelectSelectorConfig(options=choices, translation_key=CONF_DRYER, mode=SelectSelectorMode.DROPDOWN)
                )}
            ),
            description_placeholders={**placeholders, "appliance": appliance.name, "dryer": shown},
        )

    async def _async_patch(
        self, person: str | None, changes: dict[str, Any]
    ) -> tuple[bool, dict[str, str], dict[str, str]]:
        """PATCH the household or a person: done, or the form's errors and the service's message."""
        if person is None:
            return await self._async_apply(lambda: self._client.async_update_household(changes))
        return await self._async_apply(lambda: self._client.async_update_person(person, changes))

    async def _async_apply(
        self, change: Callable[[], Awaitable[Any]]
    ) -> tuple[bool, dict[str, str], dict[str, str]]:
        """Make a change in the service: done, or the form's errors and the service's message."""
        try:
            await change()
        except ApiError as err:
            if err.status == 400:
                return False, {"base": "refused"}, {"message": err.message}
            return False, {"base": "cannot_change"}, {"message": str(err)}
        except CycletrackError as err:
            return False, {"base": "cannot_change"}, {"message": str(err)}
        return True, {}, {"message": ""}


def _person_changes(user_input: dict[str, Any]) -> dict[str, Any]:
    """Return the person form as the API's keys."""
    quiet = user_input[CONF_QUIET]
    language = user_input[CONF_LANGUAGE]
    return {
        CONF_KINDS: [kind for kind in KINDS if kind in user_input[CONF_KINDS]],
        CONF_QUIET: (
            f"{_clock(user_input[CONF_START])}-{_clock(user_input[CONF_END])}" if quiet == QUIET_OWN
            else "off" if quiet == QUIET_OFF else None
        ),
        CONF_LANGUAGE: None if language == LANGUAGE_HOUSEHOLD else language,
    }
