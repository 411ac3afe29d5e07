import { z } from 'zod';
import { ZCreateDeviceInput, ZDeviceDto, ZDevicePairing, ZPairDeviceInput, ZUpdateDeviceInput } from '../../../shared/checkin';
import { AppError } from '../../../shared/errors';
import { ADMIN_ONLY, ADMIN_OR_STAFF } from '../../auth/principal';
import type { AppContext } from '../../context';
import { defineRoute, listResult, ZIdParams, type AnyRouteDef } from '../../rest/route';
import { devicesService } from './devices.service';

export const devicesOf = (ctx: AppContext) => devicesService(ctx.db, { publicUrl: ctx.env.publicUrl });

const ZPairResult = z.object({ token: z.string(), device: ZDeviceDto });

export const deviceRoutes: AnyRouteDef[] = [
  defineRoute({
    method: 'post',
    path: '/devices/pair',
    summary: 'Pair a door device: exchange a one-time pairing code for its Bearer token (shown once)',
    tags: ['devices'],
    access: 'public',
    body: ZPairDeviceInput,
    responses: {
      200: { description: 'The device token and the device', schema: ZPairResult },
      400: { description: 'svc_pairing_code_invalid: unknown, expired or used code' },
      429: { description: 'Throttled' },
    },
    handler: async ({ body, ip, ctx }) => ({ body: await devicesOf(ctx).pair({ code: body.code, ip }), headers: { 'cache-control': 'no-store' } }),
  }),
  defineRoute({
    method: 'get',
    path: '/devices/me',
    summary: 'The calling door device (device token only)',
    tags: ['devices'],
    access: ADMIN_OR_STAFF,
    responses: { 200: { description: 'The device', schema: ZDeviceDto }, 404: { description: 'Not a device token' } },
    async handler({ principal, ctx }) {
      if (principal!.deviceId === undefined) throw new AppError('svc_not_found', 'This credential is not a door device.');
      return { body: await devicesOf(ctx).get(principal!.deviceId) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/devices',
    summary: 'Door devices with last-seen time and the unsynced scans each last reported',
    tags: ['devices'],
    access: ADMIN_ONLY,
    responses: { 200: { description: 'Devices', schema: z.array(ZDeviceDto) } },
    async handler({ ctx }) {
      const items = await devicesOf(ctx).list();
      return listResult(items, items.length);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/devices',
    summary: 'Create a door device for some events; answers a one-time pairing code (15 minutes) and a URL for the QR code',
    tags: ['devices'],
    access: ADMIN_ONLY,
    body: ZCreateDeviceInput,
    responses: { 201: { description: 'The device and its pairing code', schema: ZDeviceDto.extend({ pairing: ZDevicePairing }) } },
    async handler({ body, principal, ctx }) {
      const { device, pairing } = await devicesOf(ctx).create(body, principal!);
      return { status: 201, body: { ...device, pairing }, headers: { 'cache-control': 'no-store' } };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/devices/:id',
    summary: 'Rename a device or change its events',
    tags: ['devices'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    body: ZUpdateDeviceInput,
    responses: { 200: { description: 'The device', schema: ZDeviceDto }, 404: { description: 'No such device' } },
    handler: async ({ params, body, ctx }) => ({ body: await devicesOf(ctx).update(params.id, body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/devices/:id/pairing-code',
    summary: 'A new one-time pairing code for a device (re-pairing)',
    tags: ['devices'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 201: { description: 'The pairing code', schema: ZDevicePairing }, 404: { description: 'No such device' }, 409: { description: 'Revoked device' } },
    handler: async ({ params, ctx }) => ({ status: 201, body: await devicesOf(ctx).newPairingCode(params.id), headers: { 'cache-control': 'no-store' } }),
  }),
  defineRoute({
    method: 'delete',
    path: '/devices/:id',
    summary: 'Revoke a device: its token then answers 401 svc_device_revoked (the row is kept)',
    tags: ['devices'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 204: { description: 'Revoked' }, 404: { description: 'No such device' } },
    async handler({ params, ctx }) {
      await devicesOf(ctx).revoke(params.id);
      return { status: 204 };
    },
  }),
];
