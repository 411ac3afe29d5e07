/** The admin app's calls for shared resources (extended edition; docs/api.md#resources), through the typed tRPC client. */
import { call, rpc } from '../ui/trpc';
import type { ResourceDto, ResourceInput, ResourcePatch } from '../../shared/resources';

export type { ResourceDto };

/** The largest page the list operation answers (docs/api.md#rest). */
const PER_PAGE = 500;

/** Every resource, by name. */
export async function listResources(): Promise<ResourceDto[]> {
  const items: ResourceDto[] = [];
  for (let page = 1; ; page++) {
    const chunk = await call(rpc().resources.list.query({ page, perPage: PER_PAGE }));
    items.push(...chunk.items);
    if (items.length >= chunk.total || chunk.items.length < PER_PAGE) return items;
  }
}

export const addResource = (input: ResourceInput) => call(rpc().resources.create.mutate(input));
export const changeResource = (id: number, patch: ResourcePatch) => call(rpc().resources.update.mutate({ id, patch }));
export const removeResource = (id: number) => call(rpc().resources.delete.mutate({ id }));
