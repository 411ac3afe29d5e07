/** Queries of publicly proposed events (rows of svc_events with a submission status); no rules here (STYLE §2). */
import { and, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { ReviewStatus } from '../../../shared/submissions';
import { events } from '../events/events.sql';

/** A review state as a condition on the two columns it is made of (shared/submissions.ts `REVIEW_STATUSES`). */
function reviewCondition(status: ReviewStatus | undefined): SQL | undefined {
  switch (status) {
    case 'submitted':
      return and(eq(events.submissionStatus, 'submitted'), eq(events.status, 'draft'));
    case 'rejected':
      return and(eq(events.submissionStatus, 'rejected'), eq(events.status, 'draft'));
    case 'published':
      return and(isNotNull(events.submissionStatus), eq(events.status, 'published'));
    default:
      return isNotNull(events.submissionStatus);
  }
}

export const submissionsRepository = {
  /** Proposals, newest first, one page of them and how many match. */
  async list(db: Db, filter: { status?: ReviewStatus }, limit: number, offset: number) {
    const where = reviewCondition(filter.status);
    const [rows, [count]] = await Promise.all([
      db.select().from(events).where(where).orderBy(desc(events.id)).limit(limit).offset(offset),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(events)
        .where(where),
    ]);
    return { rows, total: count!.n };
  },
};
