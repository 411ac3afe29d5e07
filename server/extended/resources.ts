/**
 * Shared resources (docs/api.md#resources): at priority 10 of `svc_booking_slots` (4 args) the
 * edition removes every slot in which a resource the type needs has no room left, counting the
 * bookings of every type that needs it, buffers included. The display cache holds the lists
 * before this filter, so every answer is checked against the agendas as they are. On the write
 * path the same callback runs inside the booking's transaction and locks the resources first.
 */
import type { Hooks } from '../hooks';
import { PRIORITY_SHARED_RESOURCES } from '../hooks/priorities';
import type { PluginContext } from '../plugins/load';
import { slotWritePath } from '../modules/booking/slot.service';
import { keepSlotsWithRoom } from '../modules/resources/resources.service';

export function registerResources(hooks: Hooks, ctx: PluginContext): void {
  hooks.addFilter(
    'svc_booking_slots',
    (list, bookingTypeId, _from, _to) => {
      // An earlier callback may have answered something else; the contract filter sorts that out.
      if (!Array.isArray(list)) return list;
      const write = slotWritePath();
      return keepSlotsWithRoom(write?.tx ?? ctx.db, list, bookingTypeId, { lock: write !== undefined, excludeBookingId: write?.excludeBookingId });
    },
    PRIORITY_SHARED_RESOURCES,
    4,
  );
}
