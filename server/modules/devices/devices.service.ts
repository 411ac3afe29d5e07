/**
 * Door devices (docs/api.md#auth): an administrator creates a device and gets a one-time pairing code
 * (and a URL to show as a QR code); the device exchanges the code for its Bearer token once.
 * A revoked device's token answers 401 `svc_device_revoked`, never the generic 401, so the door
 * app can tell staff that its queued scans were not accepted.
 */
import type { AppContext } from '../../context';
import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { AppError } from '../../../shared/errors';
import type { CreateDeviceInput, DeviceDto, DevicePairing, SyncCategory, UpdateDeviceInput } from '../../../shared/checkin';
import { toUtcString } from '../../../shared/time';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db/client';
import { randomToken, sha256Hex } from '../../security/crypto';
import { enforceRateLimit } from '../../security/throttle';
import { events } from '../events/events.sql';
import { devicesRepository, type DeviceRecord } from './devices.repository';

/** No 0/O, 1/I: read aloud and typed on a phone without mistakes; 32 symbols = 5 bits each. */
export const PAIRING_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const PAIRING_CODE_LENGTH = 8;
export const PAIRING_CODE_MINUTES = 15;
/** Pairing attempts per client IP (a venue may pair many phones behind one NAT); 40-bit codes stay unguessable at this rate. */
export const PAIRING_IP_LIMIT = { limit: 30, windowSeconds: 60 };

export function newPairingCode(): string {
  const bytes = randomBytes(PAIRING_CODE_LENGTH);
  let code = '';
  for (const b of bytes) code += PAIRING_ALPHABET[b & 31];
  return code;
}

/** What people type: any case, with or without the dash or spaces. */
export function normalizePairingCode(input: string): string {
  return input.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

const formatPairingCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

export function toDeviceDto(d: DeviceRecord): DeviceDto {
  return {
    id: d.id,
    name: d.name,
    eventIds: d.eventIds,
    createdUtc: d.createdUtc,
    pairedUtc: d.pairedUtc,
    pairingExpiresUtc: d.pairingCodeHash ? d.pairingExpiresUtc : null,
    lastSeenUtc: d.lastSeenUtc,
    pendingCount: d.pendingCount,
    pendingReportedUtc: d.pendingReportedUtc,
    revokedUtc: d.revokedUtc,
    walkIns: d.walkIns,
    categoryIds: d.categoryIds ?? null,
  };
}

/** The principal behind a device token; null when no device has it; throws when the device was revoked. */
export async function authenticateDeviceToken(db: Db, tokenHash: string): Promise<Principal | null> {
  const repo = devicesRepository(db);
  const device = await repo.findByTokenHashAndTouch(tokenHash);
  if (!device) return null;
  if (device.revokedUtc) throw new AppError('svc_device_revoked');
  return { via: 'token', role: 'staff', userId: null, eventIds: device.eventIds, deviceId: device.id, categoryIds: device.categoryIds ?? null };
}

export function devicesService(ctx: AppContext) {
  const { db } = ctx;
  const repo = devicesRepository(db);

  async function assertEventsExist(eventIds: number[]): Promise<void> {
    const found = new Set((await db.select({ id: events.id }).from(events).where(inArray(events.id, eventIds))).map((r) => r.id));
    const missing = eventIds.filter((id) => !found.has(id));
    if (missing.length > 0)
      throw new AppError('svc_invalid_param', 'Invalid parameter(s): eventIds', { params: { eventIds: `no such event: ${missing.join(', ')}` } });
  }

  /**
   * A check-in list (docs/decisions/029-check-in-lists.md): categories of the device's events,
   * deduplicated and sorted; null stays null (every ticket).
   */
  async function checkedList(categoryIds: number[] | null, eventIds: number[]): Promise<number[] | null> {
    if (categoryIds === null) return null;
    const ids = [...new Set(categoryIds)].sort((a, b) => a - b);
    const eventOf = new Map((await repo.categoryEvents(ids)).map((c) => [c.id, c.eventId]));
    const missing = ids.filter((id) => !eventOf.has(id));
    const elsewhere = ids.filter((id) => eventOf.has(id) && !eventIds.includes(eventOf.get(id)!));
    const problem =
      missing.length > 0
        ? `no such ticket category: ${missing.join(', ')}`
        : elsewhere.length > 0
          ? `not a category of the device's events: ${elsewhere.join(', ')}`
          : null;
    if (problem) throw new AppError('svc_invalid_param', 'Invalid parameter(s): categoryIds', { params: { categoryIds: problem } });
    return ids;
  }

  async function issuePairing(device: DeviceRecord, nowMs: number): Promise<DevicePairing> {
    const code = newPairingCode();
    const expires = toUtcString(nowMs + PAIRING_CODE_MINUTES * 60_000);
    const updated = await repo.setPairingCode(device.id, sha256Hex(code), expires);
    if (!updated) throw new AppError('svc_conflict', 'This device was revoked; create a new one.');
    return pairingOf(device.id, code, expires);
  }

  // The code rides in the URL fragment: browsers never send it, so no request log can hold it.
  const pairingOf = (deviceId: number, code: string, expires: string): DevicePairing => ({
    deviceId,
    pairingCode: formatPairingCode(code),
    pairingExpiresUtc: expires,
    pairingUrl: `${ctx.env.publicUrl}/door#pair=${code}`,
  });

  return {
    list: async (): Promise<DeviceDto[]> => (await repo.list()).map(toDeviceDto),

    async create(input: CreateDeviceInput, actor: Principal, nowMs = Date.now()): Promise<{ device: DeviceDto; pairing: DevicePairing }> {
      const eventIds = [...new Set(input.eventIds)];
      await assertEventsExist(eventIds);
      const categoryIds = await checkedList(input.categoryIds ?? null, eventIds);
      const code = newPairingCode();
      const expires = toUtcString(nowMs + PAIRING_CODE_MINUTES * 60_000);
      const row = await repo.insert({
        name: input.name,
        eventIds,
        categoryIds,
        pairingCodeHash: sha256Hex(code),
        pairingExpiresUtc: expires,
        createdBy: actor.userId,
      });
      return { device: toDeviceDto(row), pairing: pairingOf(row.id, code, expires) };
    },

    async update(id: number, input: UpdateDeviceInput): Promise<DeviceDto> {
      const patch: UpdateDeviceInput = { ...input };
      if (patch.eventIds) {
        patch.eventIds = [...new Set(patch.eventIds)];
        await assertEventsExist(patch.eventIds);
      }
      // the list is checked against the events the device will have: a list left naming a category
      // of an event taken away is refused, not kept (it would limit nothing the device scans)
      if (patch.categoryIds !== undefined || patch.eventIds) {
        const current = await repo.findById(id);
        if (!current) throw new AppError('svc_not_found', 'No such device.');
        const list = patch.categoryIds !== undefined ? patch.categoryIds : (current.categoryIds ?? null);
        const checked = await checkedList(list, patch.eventIds ?? current.eventIds);
        if (patch.categoryIds !== undefined) patch.categoryIds = checked;
      }
      // an empty patch changes nothing (an UPDATE without columns is an error, not a no-op)
      const changes = Object.values(patch).some((v) => v !== undefined);
      const row = changes ? await repo.update(id, patch) : await repo.findById(id);
      if (!row) throw new AppError('svc_not_found', 'No such device.');
      return toDeviceDto(row);
    },

    /** A fresh pairing code (re-pairing a wiped phone); the old token stops working once it is used. */
    async newPairingCode(id: number, nowMs = Date.now()): Promise<DevicePairing> {
      const device = await repo.findById(id);
      if (!device) throw new AppError('svc_not_found', 'No such device.');
      return issuePairing(device, nowMs);
    },

    async revoke(id: number): Promise<void> {
      if (!(await repo.findById(id))) throw new AppError('svc_not_found', 'No such device.');
      await repo.revoke(id);
    },

    /** Public, throttled per IP: exchanges an unexpired, unused code for the device token (shown once). */
    async pair(input: { code: string; ip: string }, nowMs = Date.now()): Promise<{ token: string; device: DeviceDto }> {
      await enforceRateLimit(db, `pair:ip:${input.ip}`, PAIRING_IP_LIMIT, nowMs);
      const token = randomToken(32);
      const device = await repo.redeemPairingCode(sha256Hex(normalizePairingCode(input.code)), sha256Hex(token), toUtcString(nowMs));
      if (!device) throw new AppError('svc_pairing_code_invalid');
      return { token, device: toDeviceDto(device) };
    },

    reportPending: (deviceId: number, pending: number) => repo.reportPending(deviceId, pending),

    /** The categories a check-in list of a device of these events may name. */
    ticketCategories: (eventIds: number[]): Promise<SyncCategory[]> => repo.categoriesOfEvents([...new Set(eventIds)]),

    async get(id: number): Promise<DeviceDto> {
      const device = await repo.findById(id);
      if (!device) throw new AppError('svc_not_found', 'No such device.');
      return toDeviceDto(device);
    },
  };
}
export type DevicesService = ReturnType<typeof devicesService>;
