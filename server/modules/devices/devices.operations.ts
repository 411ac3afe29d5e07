/** Door devices (docs/api.md): management for the admin app, pairing and "who am I" for the door app. */
import { z } from 'zod';
import { ZCreateDeviceInput, ZDeviceDto, ZDevicePairing, ZPairDeviceInput, ZSyncCategory, ZUpdateDeviceInput } from '../../../shared/checkin';
import { ZPositiveId } from '../../../shared/schemas';
import { AppError } from '../../../shared/errors';
import { defineOperation, ZIdParams, ZListOf } from '../../api/operation';
import { ADMIN_ONLY, ADMIN_OR_STAFF } from '../../auth/principal';
import { devicesService } from './devices.service';

// Compositions of the shared device shapes (shared/checkin.ts), answered only here.
/** A paired device: its Bearer token (shown once) and the device. */
const ZPairResult = z.object({ token: z.string(), device: ZDeviceDto });
/** A new device with its first pairing code. */
const ZCreatedDevice = ZDeviceDto.extend({ pairing: ZDevicePairing });

const TAGS = ['devices'];
const NO_STORE = { 'cache-control': 'no-store' };

export const devicesOperations = {
  pair: defineOperation({
    summary: 'Pair a door device: exchange a one-time pairing code for its Bearer token (shown once)',
    access: 'public',
    kind: 'mutation',
    input: ZPairDeviceInput,
    output: ZPairResult,
    rest: {
      method: 'post',
      path: '/devices/pair',
      tags: TAGS,
      headers: NO_STORE,
      describe: 'The device token and the device',
      errors: { 400: 'svc_pairing_code_invalid: unknown, expired or used code', 429: 'Throttled' },
    },
    handler: ({ input, ip, ctx }) => devicesService(ctx).pair({ code: input.code, ip }),
  }),
  me: defineOperation({
    summary: 'The calling door device (device token only)',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    output: ZDeviceDto,
    rest: { method: 'get', path: '/devices/me', tags: TAGS, describe: 'The device', errors: { 404: 'Not a device token' } },
    async handler({ principal, ctx }) {
      if (principal.deviceId === undefined) throw new AppError('svc_not_found', 'This credential is not a door device.');
      return devicesService(ctx).get(principal.deviceId);
    },
  }),
  list: defineOperation({
    summary: 'Door devices with last-seen time and the unsynced scans each last reported',
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZListOf(ZDeviceDto),
    rest: { method: 'get', path: '/devices', tags: TAGS, list: true, describe: 'Devices' },
    async handler({ ctx }) {
      const items = await devicesService(ctx).list();
      return { items, total: items.length };
    },
  }),
  create: defineOperation({
    summary: 'Create a door device for some events; answers a one-time pairing code (15 minutes) and a URL for the QR code',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZCreateDeviceInput,
    output: ZCreatedDevice,
    rest: { method: 'post', path: '/devices', tags: TAGS, status: 201, headers: NO_STORE, describe: 'The device and its pairing code' },
    async handler({ input, principal, ctx }) {
      const { device, pairing } = await devicesService(ctx).create(input, principal);
      return { ...device, pairing };
    },
  }),
  update: defineOperation({
    summary: 'Rename a device, change its events, or allow it to register walk-ins at the door',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ patch: ZUpdateDeviceInput }),
    output: ZDeviceDto,
    rest: { method: 'patch', path: '/devices/:id', tags: TAGS, bodyKey: 'patch', describe: 'The device', errors: { 404: 'No such device' } },
    handler: ({ input, ctx }) => devicesService(ctx).update(input.id, input.patch),
  }),
  ticketCategories: defineOperation({
    summary: 'The ticket categories of some events, for choosing a device check-in list (admin app)',
    access: ADMIN_ONLY,
    kind: 'query',
    input: z.object({ eventIds: z.array(ZPositiveId).min(1).max(500) }),
    output: z.array(ZSyncCategory),
    handler: ({ input, ctx }) => devicesService(ctx).ticketCategories(input.eventIds),
  }),
  newPairingCode: defineOperation({
    summary: 'A new one-time pairing code for a device (re-pairing)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZDevicePairing,
    rest: {
      method: 'post',
      path: '/devices/:id/pairing-code',
      tags: TAGS,
      status: 201,
      headers: NO_STORE,
      describe: 'The pairing code',
      errors: { 404: 'No such device', 409: 'Revoked device' },
    },
    handler: ({ input, ctx }) => devicesService(ctx).newPairingCode(input.id),
  }),
  revoke: defineOperation({
    summary: 'Revoke a device: its token then answers 401 svc_device_revoked (the row is kept)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: { method: 'delete', path: '/devices/:id', tags: TAGS, describe: 'Revoked', errors: { 404: 'No such device' } },
    handler: ({ input, ctx }) => devicesService(ctx).revoke(input.id),
  }),
};
