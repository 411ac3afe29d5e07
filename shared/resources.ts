/** Shared resources of the extended edition (docs/api.md#resources): a room, a projector, used by booking types. */
import { z } from './validation';
import { ZPositiveId } from './schemas';

/** How many resources one booking type may need (a form lists them as checkboxes). */
export const MAX_RESOURCES_PER_TYPE = 50;

const ZResourceName = z.string().trim().min(1).max(190);
/** Sessions the resource can host at once (a room: 1; a pool of 3 projectors: 3). */
const ZResourceCapacity = z.number().int().min(1).max(1000);

/** POST /resources body. */
export const ZResourceInput = z.object({ name: ZResourceName, capacity: ZResourceCapacity.default(1) });
export type ResourceInput = z.infer<typeof ZResourceInput>;

/** PATCH /resources/{id} body: rename, or change the capacity. */
export const ZResourcePatch = z.object({ name: ZResourceName, capacity: ZResourceCapacity }).partial();
export type ResourcePatch = z.infer<typeof ZResourcePatch>;

/** A booking type's `resourceIds`: existing resource ids (checked by the service; duplicates are dropped). */
export const ZResourceIds = z.array(ZPositiveId).max(MAX_RESOURCES_PER_TYPE);

export const ZResourceDto = z.object({
  id: z.number().int(),
  name: z.string(),
  capacity: z.number().int(),
  /** The booking types that need it, ascending (docs/api.md#resources). */
  bookingTypeIds: z.array(z.number().int()),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
export type ResourceDto = z.infer<typeof ZResourceDto>;
