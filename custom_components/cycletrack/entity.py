"""The base entities: one per appliance (on its device, or the device it belongs to) and the service's."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from homeassistant.core import callback
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity import Entity, EntityDescription
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.helpers.update_coordinator import CoordinatorEntity

from .const import DOMAIN
from .coordinator import CycletrackConfigEntry, CycletrackCoordinator
from .models import Appliance


def service_device_info(coordinator: CycletrackCoordinator) -> DeviceInfo:
    """Return the service's own device (a service, not hardware)."""
    service = coordinator.data.service
    return DeviceInfo(
        identifiers={(DOMAIN, service.instance_id)},
        name="cycletrack",
        manufacturer="cycletrack",
        model="Appliance cycle service",
        sw_version=service.version,
        entry_type=DeviceEntryType.SERVICE,
    )


def linked_device(coordinator: CycletrackCoordinator, appliance: Appliance) -> dr.DeviceEntry | None:
    """Return the other integration's device the appliance is (the API's `device_id`), when registered."""
    if appliance.device_id is None:
        return None
    device = dr.async_get(coordinator.hass).async_get(appliance.device_id)
    # A child device is a part of another device: the appliance is the main device.
    return device if isinstance(device, dr.DeviceEntry) else None


def own_device_info(coordinator: CycletrackCoordinator, appliance: Appliance) -> DeviceInfo:
    """Return the appliance's own device, reached through the service's device."""
    return DeviceInfo(
        identifiers={(DOMAIN, appliance_device_key(coordinator.instance_id, appliance.id))},
        name=appliance.name,
        manufacturer="cycletrack",
        model=appliance.profile,
        via_device_id=coordinator.service_device_id,
    )


def appliance_device_key(instance_id: str, appliance_id: str) -> str:
    """Return the identifier of an appliance's own device."""
    return f"{instance_id}_{appliance_id}"


class CycletrackApplianceEntity(CoordinatorEntity[CycletrackCoordinator]):
    """An entity of one appliance: unique id `<instance_id>_<appliance_id>_<key>`."""

    _attr_has_entity_name = True

    def __init__(self, coordinator: CycletrackCoordinator, appliance_id: str, key: str) -> None:
        """`key` names the entity's translation and ends its unique id."""
        super().__init__(coordinator)
        self.appliance_id = appliance_id
        self._attr_translation_key = key
        self._attr_unique_id = f"{coordinator.instance_id}_{appliance_id}_{key}"
        # An appliance that is another integration's device (Home Connect's dishwasher)
        # gets no device of its own: its entities are attached to that device, as Home
        # Assistant's helpers attach theirs (`device_entry`; a device has one config
        # entry, so a device_info with the other device's identifiers can't share it).
        if (device := linked_device(coordinator, self.appliance)) is not None:
            self.device_entry = device
        else:
            self._attr_device_info = own_device_info(coordinator, self.appliance)

    @property
    def appliance(self) -> Appliance:
        """The appliance as last pushed (only while it is in the service's data)."""
        return self.coordinator.data.appliances[self.appliance_id]

    @property
    def available(self) -> bool:
        """Unavailable while the stream is down, or once the service no longer has the appliance."""
        return super().available and self.appliance_id in self.coordinator.data.appliances


class DescribedApplianceEntity(CycletrackApplianceEntity):
    """An appliance entity made from an entity description (its key names it)."""

    def __init__(self, coordinator: CycletrackCoordinator, appliance_id: str, description: EntityDescription) -> None:
        """Use the description's key as the translation key and the unique id's end."""
        super().__init__(coordinator, appliance_id, description.key)
        self.entity_description = description


class CycletrackServiceEntity(CoordinatorEntity[CycletrackCoordinator]):
    """An entity of the service's device: unique id `<instance_id>_<key>`."""

    _attr_has_entity_name = True

    def __init__(self, coordinator: CycletrackCoordinator, key: str) -> None:
        """`key` names the entity's translation and ends its unique id."""
        super().__init__(coordinator)
        self._attr_translation_key = key
        self._attr_unique_id = f"{coordinator.instance_id}_{key}"
        self._attr_device_info = service_device_info(coordinator)


@callback
def async_add_appliance_entities(
    entry: CycletrackConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
    make: Callable[[CycletrackCoordinator, str], Iterable[Entity]],
) -> None:
    """Add `make`'s entities for each appliance now, and for each one the service adds later."""
    coordinator = entry.runtime_data.coordinator
    added: set[str] = set()

    @callback
    def add_new() -> None:
        new = [appliance_id for appliance_id in coordinator.data.appliances if appliance_id not in added]
        if not new:
            return
        added.update(new)
        async_add_entities([entity for appliance_id in new for entity in make(coordinator, appliance_id)])

    add_new()
    entry.async_on_unload(coordinator.async_add_listener(add_new))
