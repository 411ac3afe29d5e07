import type { OperationRecord } from '../../api/operation';

/** Filled in by the timeline work (issue 14). */
export const timelineOperations = {} satisfies OperationRecord;
