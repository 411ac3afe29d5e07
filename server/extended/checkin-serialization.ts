import { batchLoad, PRIORITY_CHECKIN_SERIALIZATION, type Hooks } from '../hooks';
import { checkinRepository } from '../modules/checkin/checkin.repository';
import type { PluginContext } from '../plugins/load';

/**
 * Contract: the extended edition adds checkinCount and lastCheckinUtc to
 * svc_rest_attendee_response at priority 10 (annulled check-ins not counted). The stats are
 * loaded once per serialized page (batchLoad), so a 100,000-row export runs one query per
 * 1,000 rows, not one per row.
 */
export function registerCheckinSerialization(hooks: Hooks, ctx: PluginContext): void {
  const repo = checkinRepository(ctx.db, ctx.logger);
  hooks.addFilter(
    'svc_rest_attendee_response',
    async (serialized, row) => {
      const stats = await batchLoad('checkin-stats', row.id, (ids) => repo.statsForAttendees([...ids]));
      const mine = stats.get(row.id);
      serialized.checkinCount = mine?.count ?? 0;
      serialized.lastCheckinUtc = mine?.lastUtc ?? null;
      return serialized;
    },
    PRIORITY_CHECKIN_SERIALIZATION,
    2,
  );
}
