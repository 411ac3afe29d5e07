import type { OperationRecord } from '../../api/operation';

/** Filled in by the webhooks work (issue 14). */
export const webhooksOperations = {} satisfies OperationRecord;
