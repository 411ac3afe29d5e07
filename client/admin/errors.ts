import { ApiError, errorMessage } from '../ui/errors';
import { t } from '../i18n/i18n';

/** The server's sentence plus, for a validation error, what was wrong with each field. */
export function adminErrorMessage(error: unknown): string {
  const base = errorMessage(error);
  if (!(error instanceof ApiError) || error.code !== 'svc_invalid_param') return base;
  const params = error.data?.params;
  if (!params || typeof params !== 'object') return base;
  const details = Object.entries(params)
    .map(([field, problem]) => t('admin.common.fieldProblem', { field, problem: typeof problem === 'string' ? problem : t('admin.common.invalid') }))
    .join('; ');
  return details ? t('admin.common.withDetails', { message: base, details }) : base;
}
