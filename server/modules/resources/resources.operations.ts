import type { OperationRecord } from '../../api/operation';

/** Filled in by the resources work (issue 14). */
export const resourcesOperations = {} satisfies OperationRecord;
