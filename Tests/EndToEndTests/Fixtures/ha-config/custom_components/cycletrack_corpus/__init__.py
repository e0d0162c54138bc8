"""Entities of real devices for the brand stand-ins (miele, smartthings, lg_thinq), built from
cycletrack's corpus fixtures (Tests/HomeAssistantAPITests/Fixtures/RealDevices, converted from
Home Assistant's own test snapshots). Never set up as an integration: the stand-ins import it.

A test copies the fixtures it wants into ``<config>/cycletrack_corpus/<integration>/<device>.json``
before Home Assistant starts. The stand-in of that integration then creates each device (its
name, manufacturer, model) and each of its entities with the fixture's entity id, unique id,
translation key, device class, unit, options and state; the entity registry shows them as the
real integration's would (platform = the brand's domain).

Tests drive the states with ``<domain>.set_entity_state``:
``{"states": {"sensor.washing_machine": "in_use", "sensor.washing_machine_remaining_time": 84}}``.
An unknown entity id, or an enum or select value outside the entity's options, is refused.
"""
from __future__ import annotations

from datetime import datetime
import json
from pathlib import Path
import re
from typing import Any

import voluptuous as vol

from collections.abc import Awaitable, Callable

from homeassistant.components.binary_sensor import BinarySensorDeviceClass, BinarySensorEntity
from homeassistant.components.select import SelectEntity
from homeassistant.components.sensor import SensorDeviceClass, SensorEntity
from homeassistant.config_entries import SOURCE_IMPORT, ConfigEntry, ConfigFlow
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity_platform import AddEntitiesCallback
from homeassistant.helpers.typing import ConfigType

FOLDER = "cycletrack_corpus"
NO_VALUE = ("unknown", "unavailable", None)


def _read(folder: Path) -> list[dict[str, Any]]:
    devices = []
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            try:
                device = json.loads(path.read_text(encoding="utf-8"))
            except ValueError as error:
                raise ValueError(f"{path}: not a corpus fixture: {error}") from error
            device["slug"] = path.stem
            devices.append(device)
    return devices


async def async_devices(hass: HomeAssistant, domain: str) -> list[dict[str, Any]]:
    """The corpus devices copied for ``domain`` (none: the stand-in's own behaviour)."""
    folder = Path(hass.config.path(FOLDER, domain))
    return await hass.async_add_executor_job(_read, folder)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


class CorpusEntity:
    """What every corpus entity shares: ids, device, the raw state kept in the runtime."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def setup(self, runtime: dict[str, Any], domain: str, device: dict[str, Any], fixture: dict[str, Any]) -> None:
        self._runtime = runtime
        self._fixture = fixture
        self.entity_id = fixture["entity_id"]
        self._attr_unique_id = fixture["unique_id"]
        self._attr_translation_key = fixture.get("translation_key")
        object_id = fixture["entity_id"].split(".", 1)[1]
        device_slug = _slug(device["device"]["name"])
        rest = object_id[len(device_slug):].strip("_") if object_id.startswith(device_slug) else object_id
        self._attr_name = rest.replace("_", " ").capitalize() if rest else None
        info = device["device"]
        self._attr_device_info = DeviceInfo(
            identifiers={(domain, device["slug"])}, name=info["name"],
            manufacturer=info.get("manufacturer"), model=info.get("model"),
        )
        runtime["values"][self.entity_id] = fixture.get("state")
        runtime["entities"][self.entity_id] = self

    @property
    def raw(self) -> Any:
        return self._runtime["values"][self.entity_id]

    @property
    def available(self) -> bool:
        return self.raw != "unavailable"


def _device_class(kind: Any, value: str | None) -> Any:
    try:
        return kind(value) if value else None
    except ValueError:
        return None


class CorpusSensor(CorpusEntity, SensorEntity):
    def __init__(self, runtime: dict[str, Any], domain: str, device: dict[str, Any], fixture: dict[str, Any]) -> None:
        self.setup(runtime, domain, device, fixture)
        self._attr_device_class = _device_class(SensorDeviceClass, fixture.get("original_device_class"))
        self._attr_native_unit_of_measurement = fixture.get("unit")
        if fixture.get("options") is not None:
            self._attr_options = list(fixture["options"])

    @property
    def native_value(self) -> Any:
        raw = self.raw
        if raw in NO_VALUE:
            return None
        if self._attr_device_class == SensorDeviceClass.TIMESTAMP:
            return datetime.fromisoformat(str(raw))
        if self._attr_device_class == SensorDeviceClass.ENUM or self._attr_native_unit_of_measurement is None:
            return str(raw)
        return float(raw)


class CorpusBinarySensor(CorpusEntity, BinarySensorEntity):
    def __init__(self, runtime: dict[str, Any], domain: str, device: dict[str, Any], fixture: dict[str, Any]) -> None:
        self.setup(runtime, domain, device, fixture)
        self._attr_device_class = _device_class(BinarySensorDeviceClass, fixture.get("original_device_class"))

    @property
    def is_on(self) -> bool | None:
        return None if self.raw in NO_VALUE else self.raw == "on"


class CorpusSelect(CorpusEntity, SelectEntity):
    def __init__(self, runtime: dict[str, Any], domain: str, device: dict[str, Any], fixture: dict[str, Any]) -> None:
        self.setup(runtime, domain, device, fixture)
        self._attr_options = list(fixture.get("options") or [])

    @property
    def current_option(self) -> str | None:
        return None if self.raw in NO_VALUE else str(self.raw)

    async def async_select_option(self, option: str) -> None:
        self._runtime["values"][self.entity_id] = option
        self.async_write_ha_state()


PLATFORM_CLASSES = {"sensor": CorpusSensor, "binary_sensor": CorpusBinarySensor, "select": CorpusSelect}


def platform_entities(runtime: dict[str, Any], domain: str, platform: str) -> list[Any]:
    """The entities of ``platform`` (sensor, binary_sensor, select) of every corpus device."""
    make = PLATFORM_CLASSES[platform]
    return [
        make(runtime, domain, device, fixture)
        for device in runtime["devices"]
        for fixture in device["entities"]
        if fixture["entity_id"].split(".", 1)[0] == platform
    ]


def _check(runtime: dict[str, Any], entity_id: str, value: str) -> None:
    entity = runtime["entities"].get(entity_id)
    if entity is None:
        raise vol.Invalid(f"unknown entity {entity_id!r}; the corpus devices have {sorted(runtime['entities'])}")
    options = entity._fixture.get("options")
    if options is not None and value not in NO_VALUE and value not in options:
        raise vol.Invalid(f"{entity_id} must be one of {options}, not {value!r}")


def register_service(hass: HomeAssistant, domain: str, runtime: dict[str, Any]) -> None:
    """``<domain>.set_entity_state`` {"states": {entity_id: value}}: sets the corpus entities' states."""

    async def set_entity_state(call: ServiceCall) -> None:
        updates = {key: (None if value is None else str(value)) for key, value in call.data["states"].items()}
        for entity_id, value in updates.items():
            _check(runtime, entity_id, value)
        runtime["values"].update(updates)
        for entity_id in updates:
            entity = runtime["entities"][entity_id]
            if entity.hass is not None:
                entity.async_write_ha_state()

    schema = vol.Schema({vol.Required("states"): {str: vol.Any(str, int, float, bool, None)}})
    hass.services.async_register(domain, "set_entity_state", set_entity_state, schema=schema)


# A brand stand-in that serves corpus devices only (smartthings, lg_thinq) is these pieces
# under its own domain: its __init__, config flow and platform files are a few lines each.
PLATFORMS = [Platform.SENSOR, Platform.BINARY_SENSOR, Platform.SELECT]


def config_schema(domain: str) -> vol.Schema:
    """The stand-in's YAML: ``<domain>:`` alone makes its config entry."""
    return vol.Schema({domain: vol.Any(None, {})}, extra=vol.ALLOW_EXTRA)


async def async_setup_brand(hass: HomeAssistant, config: ConfigType, domain: str) -> bool:
    """Reads the copied corpus devices, registers ``<domain>.set_entity_state``, makes the entry."""
    runtime: dict[str, Any] = {"values": {}, "entities": {}, "devices": await async_devices(hass, domain)}
    hass.data[domain] = runtime
    register_service(hass, domain, runtime)
    if domain in config and not hass.config_entries.async_entries(domain):
        hass.async_create_task(
            hass.config_entries.flow.async_init(domain, context={"source": SOURCE_IMPORT}, data={})
        )
    return True


async def async_setup_brand_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_brand_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)


def platform_setup(
    domain: str, platform: str
) -> Callable[[HomeAssistant, ConfigEntry, AddEntitiesCallback], Awaitable[None]]:
    """A platform file's ``async_setup_entry``: the corpus entities of ``platform``."""

    async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddEntitiesCallback) -> None:
        async_add_entities(platform_entities(hass.data[domain], domain, platform))

    return async_setup_entry


class SingleEntryFlow(ConfigFlow):
    """The stand-in's one config entry, from YAML (import) or the user step; a
    subclass gives ``domain=`` and ``TITLE``."""

    VERSION = 1
    TITLE = "test stand-in"

    async def async_step_import(self, import_data: dict[str, Any]):
        if self._async_current_entries():
            return self.async_abort(reason="single_instance_allowed")
        return self.async_create_entry(title=self.TITLE, data=import_data)

    async def async_step_user(self, user_input: dict[str, Any] | None = None):
        if self._async_current_entries():
            return self.async_abort(reason="single_instance_allowed")
        return self.async_create_entry(title=self.TITLE, data={})
