/**
 * The first-run checklist (docs/decisions/048-first-run.md), read from the data in one statement:
 * the organization is named (Settings' seller name), its currency and zone were saved, an event is
 * published, a booking type exists, someone besides the administrators has an account (invited or
 * created), a door device is paired and not revoked.
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { queryRows } from '../../db/client';
import { SETUP_STEPS, type Setup, type SetupStepKey } from '../../../shared/setup';
import { SETTING_KEYS } from '../settings/settings.repository';

export function setupService(ctx: Pick<AppContext, 'db'>) {
  async function checklist(): Promise<Setup> {
    const [row] = await queryRows<Record<SetupStepKey, boolean>>(
      ctx.db,
      sql`select
        exists (select 1 from svc_settings where key = ${SETTING_KEYS.sellerName} and jsonb_typeof(value) = 'string' and btrim(value #>> '{}') <> '') as "organization",
        (exists (select 1 from svc_settings where key = ${SETTING_KEYS.currency})
          and exists (select 1 from svc_settings where key = ${SETTING_KEYS.defaultTimeZone})) as "regional",
        exists (select 1 from svc_events where status = 'published') as "event",
        exists (select 1 from svc_booking_types) as "bookingType",
        exists (select 1 from svc_users where role <> 'administrator') as "staff",
        exists (select 1 from svc_devices where paired_utc is not null and revoked_utc is null) as "door"`,
    );
    const steps = SETUP_STEPS.map((key) => ({ key, done: Boolean(row?.[key]) }));
    return { steps, complete: steps.every((s) => s.done) };
  }
  return { checklist };
}
