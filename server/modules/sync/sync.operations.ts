/**
 * The door device's sync protocol (docs/api.md#sync), tRPC only: a device token or a staff/admin session.
 * The door app (`client/door/sync/*`) calls `sync.push`, `sync.pull`, `sync.download`, and `sync.lookup`
 * while its list is still downloading.
 */
import { ZDownloadInput, ZDownloadResult, ZLookupInput, ZLookupResult, ZPullInput, ZPullResult, ZPushInput, ZPushResult } from '../../../shared/checkin';
import { defineOperation } from '../../api/operation';
import { ADMIN_OR_STAFF } from '../../auth/principal';
import { syncService } from './sync.service';

export const syncOperations = {
  push: defineOperation({
    summary: 'Queued scans (≤ 1,000): stored, refused or duplicate, one result per item; idempotent per device and clientId',
    access: ADMIN_OR_STAFF,
    kind: 'mutation',
    input: ZPushInput,
    output: ZPushResult,
    handler: ({ input, principal, ctx }) => syncService(ctx).push(input, principal),
  }),
  pull: defineOperation({
    summary: 'Changes of the followed events since the cursor (state-based; reset for a cursor before the pruned history)',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZPullInput,
    output: ZPullResult,
    handler: ({ input, principal, ctx }) => syncService(ctx).pull(input, principal),
  }),
  download: defineOperation({
    summary: 'One page of the first download of an event (attendee tuples); the first page carries the pull cursor',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZDownloadInput,
    output: ZDownloadResult,
    handler: ({ input, principal, ctx }) => syncService(ctx).download(input, principal),
  }),
  lookup: defineOperation({
    summary: 'One attendee by ticket code hash, as download carries it (null when unknown or of an event the caller does not follow)',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZLookupInput,
    output: ZLookupResult,
    handler: ({ input, principal, ctx }) => syncService(ctx).lookup(input, principal),
  }),
};
