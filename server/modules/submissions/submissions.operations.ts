import type { OperationRecord } from '../../api/operation';

/** Filled in by the submissions work (issue 14). */
export const submissionsOperations = {} satisfies OperationRecord;
