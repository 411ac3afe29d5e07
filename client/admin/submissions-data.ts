/**
 * The admin app's calls for proposed events (extended edition, docs/api.md#event-submission),
 * through the typed tRPC client like `data.ts`: a failure is the `ApiError` or `NetworkError`
 * pages show.
 */
import { call, rpc } from '../ui/trpc';
import type { ReviewStatus, SubmissionDto } from '../../shared/submissions';

export type { ReviewStatus, SubmissionDto };

export interface SubmissionPage {
  items: SubmissionDto[];
  total: number;
}

/** One page of proposals, newest first; all review states when `status` is omitted. */
export const listSubmissions = (status: ReviewStatus | undefined, page = 1, perPage = 50): Promise<SubmissionPage> =>
  call(rpc().submissions.list.query({ page, perPage, ...(status ? { status } : {}) }));

/** The draft becomes a published event; the submitter is mailed its link. */
export const publishSubmission = (id: number): Promise<SubmissionDto> => call(rpc().submissions.publish.mutate({ id }));

/** It stays a draft, marked rejected; the submitter is mailed the reason ('' for none). */
export const rejectSubmission = (id: number, reason: string): Promise<SubmissionDto> => call(rpc().submissions.reject.mutate({ id, reason }));
