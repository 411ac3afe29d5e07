/** Booking types: CRUD, the REST shape (docs/api.md#rest) and the resolved config hooks receive. */
import { AppError } from '../../../shared/errors';
import type { BookingTypeDto, BookingTypeInput, BookingTypePatch, PublicBookingTypeDto } from '../../../shared/booking';
import type { SlotRules } from '../../../shared/booking/slots';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { AssignmentMode, BookingTypeConfig, LocationLabels } from '../../hooks/types';
import { resourcesRepository } from '../resources/resources.repository';
import { settingsService } from '../settings/settings.service';
import { bookingRepository, type BookingTypeInsert, type BookingTypeRow } from './booking.repository';
import { profilesRepository } from '../hosts/profiles.repository';
import { hostPhotoPath } from '../../../shared/hosts';
import { imageDto } from '../../../shared/images';
import type { PublicHostDto } from '../../../shared/booking';

export type { BookingTypeDto, PublicBookingTypeDto } from '../../../shared/booking';

/** `resourceIds`: the shared resources the type needs (docs/api.md#resources), kept beside the row. */
export function toBookingTypeDto(row: BookingTypeRow, resourceIds: number[]): BookingTypeDto {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    status: row.status,
    durationMinutes: row.durationMinutes,
    slotIntervalMinutes: row.slotIntervalMinutes ?? row.durationMinutes,
    timezone: row.timezone,
    hosts: row.hosts,
    assignment: row.assignment,
    weeklyWindows: row.weeklyWindows,
    daysOff: row.daysOff,
    minNoticeMinutes: row.minNoticeMinutes,
    maxAdvanceDays: row.maxAdvanceDays,
    bufferBeforeMinutes: row.bufferBeforeMinutes,
    bufferAfterMinutes: row.bufferAfterMinutes,
    capacity: row.capacity,
    priceCents: row.priceCents,
    requiresApproval: row.requiresApproval,
    locationMode: row.locationMode,
    locationValue: row.locationValue,
    hoursSource: row.hoursSource,
    meetingLinkPattern: row.meetingLinkPattern,
    resourceIds,
    image: imageDto(row.coverImage),
    createdUtc: row.createdUtc,
    updatedUtc: row.updatedUtc,
  };
}

/** The resolved config hooks receive (snake_case, docs/api.md#plugins). */
export function toBookingTypeConfig(row: BookingTypeRow): BookingTypeConfig {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    status: row.status,
    price_cents: row.priceCents,
    requires_approval: row.requiresApproval,
    assignment: row.assignment,
    duration_minutes: row.durationMinutes,
    slot_interval_minutes: row.slotIntervalMinutes ?? row.durationMinutes,
    timezone: row.timezone,
    hosts: [...row.hosts],
    weekly_windows: structuredClone(row.weeklyWindows),
    days_off: [...row.daysOff],
    min_notice_minutes: row.minNoticeMinutes,
    max_advance_days: row.maxAdvanceDays,
    buffer_before_minutes: row.bufferBeforeMinutes,
    buffer_after_minutes: row.bufferAfterMinutes,
    capacity: row.capacity,
    location_mode: row.locationMode,
    location_value: row.locationValue,
  };
}

/** The generator's rules for a type. */
export function slotRulesOf(row: BookingTypeRow): SlotRules {
  return {
    durationMinutes: row.durationMinutes,
    slotIntervalMinutes: row.slotIntervalMinutes ?? row.durationMinutes,
    timezone: row.timezone,
    weeklyWindows: row.weeklyWindows,
    daysOff: row.daysOff,
    minNoticeMinutes: row.minNoticeMinutes,
    maxAdvanceDays: row.maxAdvanceDays,
    bufferBeforeMinutes: row.bufferBeforeMinutes,
    bufferAfterMinutes: row.bufferAfterMinutes,
    capacity: row.capacity,
    hosts: row.hosts,
    hoursSource: row.hoursSource,
  };
}

/** Contract: empty `_svc_bt_assignment` behaves as round_robin. */
export function effectiveAssignment(row: BookingTypeRow): AssignmentMode {
  return row.assignment === '' ? 'round_robin' : row.assignment;
}

/** "In person: 12 Main St"; a mode without a label prints only the value. */
export function describeLocation(row: Pick<BookingTypeRow, 'locationMode' | 'locationValue'>, labels: LocationLabels): string {
  const label = labels[row.locationMode] ?? '';
  if (label && row.locationValue) return `${label}: ${row.locationValue}`;
  return label || row.locationValue;
}

function slugify(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return base || 'booking';
}

export function bookingTypeService(ctx: AppContext, repo = bookingRepository, resources = resourcesRepository) {
  const db = ctx.db;

  const unknownResources = (ids: number[]) =>
    new AppError('svc_invalid_param', `Unknown resource id(s): ${ids.join(', ')}`, { params: { resourceIds: `unknown resource id(s): ${ids.join(', ')}` } });

  /** The distinct ids, after checking each is a resource (400 naming `resourceIds` otherwise). */
  async function checkedResourceIds(ids: number[] | undefined): Promise<number[] | undefined> {
    if (!ids) return undefined;
    const distinct = [...new Set(ids)].sort((a, b) => a - b);
    const found = await resources.existingIds(db, distinct);
    const missing = distinct.filter((id) => !found.has(id));
    if (missing.length > 0) throw unknownResources(missing);
    return distinct;
  }

  /** Writes the type's resources in its transaction; a resource deleted since the check fails its foreign key: 400 too. */
  async function setResources(tx: Db, typeId: number, ids: number[]): Promise<void> {
    await resources.setTypeResources(tx, typeId, ids).catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw unknownResources(ids);
      throw err;
    });
  }

  async function assertHostsExist(hosts: number[] | undefined): Promise<void> {
    if (!hosts || hosts.length === 0) return;
    const found = await repo.existingUserIds(db, hosts);
    const missing = hosts.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new AppError('svc_invalid_param', `Unknown host user id(s): ${missing.join(', ')}`, {
        params: { hosts: `unknown user id(s): ${missing.join(', ')}` },
      });
    }
  }

  async function uniqueSlug(wanted: string | undefined, title: string, exceptId?: number): Promise<string> {
    if (wanted) {
      if (await repo.slugTaken(db, wanted, exceptId)) throw new AppError('svc_conflict', 'That slug is taken.', { params: { slug: 'is taken' } });
      return wanted;
    }
    const base = slugify(title);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!(await repo.slugTaken(db, candidate, exceptId))) return candidate;
    }
  }

  async function getRow(id: number, opts: { publicView: boolean }): Promise<BookingTypeRow> {
    const row = await repo.findType(db, id);
    // A draft type does not exist for the public.
    if (!row || (opts.publicView && row.status !== 'published')) throw new AppError('svc_not_found', 'No such booking type.');
    return row;
  }

  /** Currency and location labels are read once for a whole list, not once per type. */
  async function toPublicDtos(rows: BookingTypeRow[]): Promise<PublicBookingTypeDto[]> {
    if (rows.length === 0) return [];
    const settings = settingsService({ db, hooks: ctx.hooks });
    const [currency, labels, resourceIds, profiles] = await Promise.all([
      settings.currency(),
      settings.locationLabels(),
      resources.idsByType(
        db,
        rows.map((r) => r.id),
      ),
      profilesRepository.findMany(db, [...new Set(rows.flatMap((r) => r.hosts))]),
    ]);
    const hosts = new Map<number, PublicHostDto>(
      profiles.map((p) => [p.userId, { userId: p.userId, name: p.displayName, bio: p.bio, photoUrl: hostPhotoPath(p.userId, p.photoEtag) }]),
    );
    return rows.map((row) => ({
      ...toBookingTypeDto(row, resourceIds.get(row.id) ?? []),
      currency,
      locationLabel: labels[row.locationMode] ?? '',
      hostProfiles: row.hosts.flatMap((id) => hosts.get(id) ?? []),
    }));
  }

  return {
    getRow,

    async get(id: number, opts: { publicView: boolean }): Promise<PublicBookingTypeDto> {
      return (await toPublicDtos([await getRow(id, opts)]))[0]!;
    },

    async list(opts: { publicView: boolean; page: number; perPage: number }): Promise<{ items: PublicBookingTypeDto[]; total: number }> {
      const { items, total } = await repo.listTypes(db, { publishedOnly: opts.publicView, page: opts.page, perPage: opts.perPage });
      return { items: await toPublicDtos(items), total };
    },

    async create(input: BookingTypeInput): Promise<BookingTypeDto> {
      const { resourceIds: wanted, ...fields } = input;
      await assertHostsExist(fields.hosts);
      const resourceIds = (await checkedResourceIds(wanted)) ?? [];
      const values: BookingTypeInsert = { ...fields, hosts: [...new Set(fields.hosts)], slug: await uniqueSlug(fields.slug, fields.title) };
      const row = await db.transaction(async (tx) => {
        const inserted = await repo.insertType(tx, values);
        await setResources(tx, inserted.id, resourceIds);
        return inserted;
      });
      return toBookingTypeDto(row, resourceIds);
    },

    async update(id: number, patch: BookingTypePatch): Promise<BookingTypeDto> {
      const current = await getRow(id, { publicView: false });
      const { resourceIds: wanted, ...fields } = patch;
      await assertHostsExist(fields.hosts);
      const newResources = await checkedResourceIds(wanted);
      const values: Partial<BookingTypeInsert> = { ...fields };
      if (fields.hosts) values.hosts = [...new Set(fields.hosts)];
      if (fields.slug !== undefined && fields.slug !== current.slug) values.slug = await uniqueSlug(fields.slug, current.title, id);
      // Every edit raises the type's version (the slot cache's key); its resources only reach the
      // filter after the cache, so they would not need it.
      const row = await db.transaction(async (tx) => {
        const updated = await repo.updateType(tx, id, values);
        if (updated && newResources) await setResources(tx, id, newResources);
        return updated;
      });
      if (!row) throw new AppError('svc_not_found', 'No such booking type.');
      return toBookingTypeDto(row, newResources ?? (await resources.idsByType(db, [id])).get(id) ?? []);
    },

    async remove(id: number): Promise<void> {
      await getRow(id, { publicView: false });
      // Bookings keep their type: a type with bookings is unpublished instead of deleted.
      if (await repo.hasBookings(db, id)) throw new AppError('svc_conflict', 'This booking type has bookings; set it to draft instead.');
      await repo.deleteType(db, id);
    },
  };
}

export type BookingTypeService = ReturnType<typeof bookingTypeService>;

/** 23503 foreign_key_violation, from the driver error under Drizzle's. */
function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
}
