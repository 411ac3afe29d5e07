/**
 * The errors pages show (docs/api.md#errors). A failed call (`call()` in trpc.ts) becomes an
 * `ApiError` carrying the server's code, message, status and data, or a `NetworkError` when no
 * answer came (offline, DNS, connection reset), so callers can tell "the server said no" from
 * "we could not reach it".
 */

/** What an error answer carries beside its code and message. */
import { t } from '../i18n/i18n';

export interface ApiErrorData {
  status?: number;
  params?: Record<string, unknown>;
  [key: string]: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;
  readonly data: ApiErrorData | undefined;

  constructor(code: string, message: string, status: number, data?: ApiErrorData) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
  }
}

export class NetworkError extends Error {
  override readonly name = 'NetworkError';

  constructor(cause: unknown) {
    super(t('common.networkError'), { cause });
  }
}

/** The sentence to show a person for any error a request or page may throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof NetworkError) return error.message;
  return t('common.somethingWrong');
}
