import { ApiError, errorMessage } from '../ui/errors';

/** The server's sentence plus, for a validation error, what was wrong with each field. */
export function adminErrorMessage(error: unknown): string {
  const base = errorMessage(error);
  if (!(error instanceof ApiError) || error.code !== 'svc_invalid_param') return base;
  const params = error.data?.params;
  if (!params || typeof params !== 'object') return base;
  const details = Object.entries(params)
    .map(([field, problem]) => `${field}: ${typeof problem === 'string' ? problem : 'invalid'}`)
    .join('; ');
  return details ? `${base} (${details})` : base;
}
