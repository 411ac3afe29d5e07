/**
 * A host's own working hours (docs/api.md#host-hours, docs/decisions/040-host-hours.md): weekly
 * windows and date overrides in the host's zone. The slot service intersects them with a type's
 * windows (or uses them alone); a host without stored hours works around the clock.
 */
import { AppError } from '../../../shared/errors';
import type { HostHours } from '../../../shared/booking/slots';
import type { HostHoursDto, HostHoursInput } from '../../../shared/host-hours';
import { WEEKDAYS } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Principal } from '../../auth/principal';
import { assertMayManageOwn } from './host-access';
import type { Db } from '../../db/client';
import { bookingRepository } from '../booking/booking.repository';
import { feedsRepository } from './feeds.repository';
import { hoursRepository, type HostHoursRow } from './hours.repository';

type HoursContext = Pick<AppContext, 'db'>;

const ALL_DAY = Object.fromEntries(WEEKDAYS.map((day) => [day, [['00:00', '24:00']]])) as HostHoursDto['weekly'];

function dtoOf(userId: number, row: HostHoursRow | null): HostHoursDto {
  if (!row) return { userId, stored: false, timezone: 'UTC', weekly: ALL_DAY, overrides: [], updatedUtc: null };
  return { userId, stored: true, timezone: row.timezone, weekly: row.weekly, overrides: row.overrides, updatedUtc: row.updatedUtc };
}

/** The generator's view of the hosts' stored hours (docs/decisions/040-host-hours.md); hosts without a row are absent. */
export async function hostHoursFor(db: Db, userIds: number[]): Promise<Map<number, HostHours>> {
  const rows = await hoursRepository.forHosts(db, userIds);
  return new Map(rows.map((row) => [row.userId, { timezone: row.timezone, weekly: row.weekly, overrides: row.overrides }]));
}

export function hoursService(ctx: HoursContext) {
  const { db } = ctx;

  async function assertUser(userId: number): Promise<void> {
    if (!(await feedsRepository.user(db, userId))) throw new AppError('svc_not_found', 'No such user.');
  }

  return {
    async get(principal: Principal, userId: number): Promise<HostHoursDto> {
      assertMayManageOwn(principal, userId);
      await assertUser(userId);
      return dtoOf(userId, await hoursRepository.find(db, userId));
    },

    /** Replaces the host's hours; their cached slot lists go stale in the same transaction. */
    async put(principal: Principal, userId: number, hours: HostHoursInput): Promise<HostHoursDto> {
      assertMayManageOwn(principal, userId);
      await assertUser(userId);
      const overrides = [...hours.overrides].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
      const row = await db.transaction(async (tx) => {
        const saved = await hoursRepository.save(tx, userId, { ...hours, overrides });
        await bookingRepository.bumpEpochs(tx, [userId]);
        return saved;
      });
      return dtoOf(userId, row);
    },
  };
}
