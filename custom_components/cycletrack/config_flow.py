"""Config flow: Supervisor discovery of the add-on, or the URL and key by hand; reauth, reconfigure (options: options_flow.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import probatio

from homeassistant.config_entries import ConfigFlow, ConfigFlowResult
from homeassistant.const import CONF_API_KEY, CONF_URL
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.selector import (
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)
from homeassistant.helpers.service_info.hassio import HassioServiceInfo

from .client import CannotConnect, CycletrackClient, CycletrackError, InvalidAuth
from .const import ADDON_SLUG, CONF_PANEL, DEFAULT_TITLE, DOMAIN, LOGGER
from .coordinator import CycletrackConfigEntry
from .models import ServiceInfo
from .options_flow import CycletrackOptionsFlow

DEFAULT_URL = "http://127.0.0.1:8099"
_KEY_SELECTOR = TextSelector(TextSelectorConfig(type=TextSelectorType.PASSWORD))
_URL_SELECTOR = TextSelector(TextSelectorConfig(type=TextSelectorType.URL))


def _connection_schema(url: str) -> probatio.Schema:
    return probatio.Schema(
        {
            probatio.Required(CONF_URL, default=url): _URL_SELECTOR,
            probatio.Required(probatio.Secret(CONF_API_KEY)): _KEY_SELECTOR,
        }
    )


async def async_read_service(hass: HomeAssistant, url: str, api_key: str) -> ServiceInfo:
    """Ask the service who it is, with this key (raises CannotConnect, InvalidAuth)."""
    client = CycletrackClient(async_get_clientsession(hass), url, api_key)
    return await client.async_get_service()


async def _async_try(hass: HomeAssistant, url: str, api_key: str) -> tuple[ServiceInfo | None, dict[str, str]]:
    """Return the service, or the form's errors."""
    if not url.startswith(("http://", "https://")):
        return None, {CONF_URL: "invalid_url"}
    try:
        return await async_read_service(hass, url, api_key), {}
    except InvalidAuth:
        return None, {"base": "invalid_auth"}
    except CannotConnect:
        return None, {"base": "cannot_connect"}
    except CycletrackError:
        LOGGER.exception("Unexpected answer from cycletrack at %s", url)
        return None, {"base": "unknown"}


class CycletrackConfigFlow(ConfigFlow, domain=DOMAIN):
    """One entry per cycletrack service (its instance id)."""

    VERSION = 1
    MINOR_VERSION = 1

    def __init__(self) -> None:
        """Nothing discovered yet."""
        self._discovered: dict[str, str] = {}
        self._addon_name = "cycletrack"

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: CycletrackConfigEntry) -> CycletrackOptionsFlow:
        """Return the options of an entry."""
        return CycletrackOptionsFlow()

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the URL and key, entered by hand."""
        data, errors = await self._async_connect(user_input)
        if data is not None:
            self._abort_if_unique_id_configured()
            return self.async_create_entry(title=DEFAULT_TITLE, data=data, options={CONF_PANEL: True})
        url = user_input[CONF_URL] if user_input else DEFAULT_URL
        return self.async_show_form(step_id="user", data_schema=_connection_schema(url), errors=errors)

    async def _async_connect(self, user_input: dict[str, Any] | None) -> tuple[dict[str, str] | None, dict[str, str]]:
        """Set the entry's data and the flow's unique id from the service's answer, or return the form's errors."""
        if user_input is None:
            return None, {}
        url, api_key = user_input[CONF_URL].rstrip("/"), user_input[CONF_API_KEY].strip()
        service, errors = await _async_try(self.hass, url, api_key)
        if service is None:
            return None, errors
        await self.async_set_unique_id(service.instance_id)
        return {CONF_URL: url, CONF_API_KEY: api_key}, {}

    async def async_step_hassio(self, discovery_info: HassioServiceInfo) -> ConfigFlowResult:
        """Take the add-on's announcement to the Supervisor: {host, port, api_key}."""
        if discovery_info.slug and not discovery_info.slug.endswith(ADDON_SLUG):
            return self.async_abort(reason="not_cycletrack_addon")
        config = discovery_info.config
        url = f"http://{config['host']}:{config['port']}"
        api_key = str(config["api_key"])
        try:
            service = await async_read_service(self.hass, url, api_key)
        except InvalidAuth:
            return self.async_abort(reason="invalid_auth")
        except CycletrackError:
            return self.async_abort(reason="cannot_connect")
        await self.async_set_unique_id(service.instance_id)
        self._abort_if_unique_id_configured(updates={CONF_URL: url, CONF_API_KEY: api_key})
        self._discovered = {CONF_URL: url, CONF_API_KEY: api_key}
        self._addon_name = discovery_info.name or "cycletrack"
        return await self.async_step_hassio_confirm()

    async def async_step_hassio_confirm(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """One click: set up the discovered add-on."""
        if user_input is None:
            self._set_confirm_only()
            return self.async_show_form(
                step_id="hassio_confirm", description_placeholders={"addon": self._addon_name}
            )
        # The add-on has its own sidebar page (ingress): no second panel.
        return self.async_create_entry(title=DEFAULT_TITLE, data=self._discovered, options={CONF_PANEL: False})

    async def async_step_reauth(self, entry_data: Mapping[str, Any]) -> ConfigFlowResult:
        """Start over when the service refused the key."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the key again (`cycletrack api-key` prints it)."""
        entry = self._get_reauth_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            api_key = user_input[CONF_API_KEY].strip()
            service, errors = await _async_try(self.hass, entry.data[CONF_URL], api_key)
            if service is not None:
                await self.async_set_unique_id(service.instance_id)
                self._abort_if_unique_id_mismatch(reason="wrong_service")
                return self.async_update_reload_and_abort(entry, data_updates={CONF_API_KEY: api_key})
        return self.async_show_form(
            step_id="reauth_confirm",
            data_schema=probatio.Schema({probatio.Required(probatio.Secret(CONF_API_KEY)): _KEY_SELECTOR}),
            description_placeholders={"url": entry.data[CONF_URL]},
            errors=errors,
        )

    async def async_step_reconfigure(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Take a new URL or key for the same service."""
        entry = self._get_reconfigure_entry()
        data, errors = await self._async_connect(user_input)
        if data is not None:
            self._abort_if_unique_id_mismatch(reason="wrong_service")
            return self.async_update_reload_and_abort(entry, data_updates=data)
        url = user_input[CONF_URL] if user_input else entry.data[CONF_URL]
        return self.async_show_form(step_id="reconfigure", data_schema=_connection_schema(url), errors=errors)
