/**
 * What the sync engine needs from the server, as one interface: the PWA passes the tRPC
 * client, unit tests the same client pointed at an in-process server.
 */
import type {
  DeviceDto,
  DownloadInput,
  DownloadResult,
  LookupInput,
  LookupResult,
  PullInput,
  PullResult,
  PushInput,
  PushItemResult,
} from '../../../shared/checkin';
import { createTrpc, trpcErrorCode } from '../../ui/trpc';

export interface DoorTransport {
  pair(code: string): Promise<{ token: string; device: DeviceDto }>;
  me(): Promise<DeviceDto>;
  download(input: DownloadInput): Promise<DownloadResult>;
  pull(input: PullInput): Promise<PullResult>;
  push(input: PushInput): Promise<{ results: PushItemResult[] }>;
  /** One attendee by code hash, asked while the list is still downloading. */
  lookup(input: LookupInput): Promise<LookupResult>;
  annul(checkinId: number): Promise<unknown>;
  /** The docs/api.md#errors code of a failed call, or 'network' when the server was not reached. */
  errorCode(error: unknown): string;
}

/** The door's transport over tRPC with the device token as Bearer. `url` defaults to `/trpc`. */
export function trpcTransport(token: () => string | null, url?: string): DoorTransport {
  const trpc = createTrpc({ bearer: token, ...(url ? { url } : {}) });
  return {
    pair: (code) => trpc.devices.pair.mutate({ code }),
    me: () => trpc.devices.me.query(),
    download: (input) => trpc.sync.download.query(input),
    pull: (input) => trpc.sync.pull.query(input),
    push: (input) => trpc.sync.push.mutate(input),
    lookup: (input) => trpc.sync.lookup.query(input),
    annul: (id) => trpc.checkin.annul.mutate({ id }),
    errorCode: trpcErrorCode,
  };
}
