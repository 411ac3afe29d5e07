/**
 * The door's ticket categories (docs/decisions/029-check-in-lists.md): the names and the check-in
 * list the last pull brought, kept on the device record, so a verdict names the category and the
 * list is applied offline.
 */
import type { CheckinList } from '../../shared/checkin-rules';
import type { DeviceRecord } from './db/door-db';

/** The device's check-in list with the events its categories belong to; null: every ticket. */
export function checkinListOf(device: Pick<DeviceRecord, 'categories' | 'checkinList'>): CheckinList | null {
  const categoryIds = device.checkinList ?? null;
  if (categoryIds === null) return null;
  const eventIds = new Set((device.categories ?? []).filter((c) => categoryIds.includes(c.id)).map((c) => c.eventId));
  return { categoryIds, eventIds: [...eventIds] };
}

/** The name of a ticket category the device knows, or null (no category, or one not pulled yet). */
export function categoryName(device: Pick<DeviceRecord, 'categories'>, categoryId: number | null): string | null {
  if (categoryId === null) return null;
  return device.categories?.find((c) => c.id === categoryId)?.name ?? null;
}

/** Whether the event has ticket categories (the door then names them and counts by them). */
export function eventHasCategories(device: Pick<DeviceRecord, 'categories'>, eventId: number): boolean {
  return (device.categories ?? []).some((c) => c.eventId === eventId);
}
