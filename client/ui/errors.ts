/**
 * The one REST wrapper of the PWA (`/svc/v1`, SPEC §3–4). A server error becomes an
 * `ApiError` carrying the body's code, message and status; a request that never got an
 * answer (offline, DNS, connection reset) becomes a `NetworkError`, so callers can tell
 * "the server said no" from "we could not reach it".
 */

export const API_BASE = '/svc/v1';

/** SPEC §3 error body: `{code, message, data: {status, params?}}`. */
export interface ApiErrorBody {
  code: string;
  message: string;
  data?: { status?: number; params?: Record<string, unknown>; [key: string]: unknown };
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number;
  readonly data: ApiErrorBody['data'];

  constructor(code: string, message: string, status: number, data?: ApiErrorBody['data']) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
  }
}

export class NetworkError extends Error {
  override readonly name = 'NetworkError';

  constructor(cause: unknown) {
    super('The server could not be reached. Check your connection and try again.', { cause });
  }
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

// Used when an error answer is not a SPEC error body (a proxy's HTML page, an empty 502).
const FALLBACK_CODES: Record<number, string> = {
  400: 'svc_invalid_param',
  401: 'svc_unauthorized',
  403: 'svc_forbidden',
  404: 'svc_not_found',
  429: 'svc_rate_limited',
};

function isErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.code === 'string' && typeof body.message === 'string';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Calls `API_BASE + path`; resolves with the parsed body (undefined for 204) and headers. */
export async function apiRequest<T>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  const init: RequestInit = {
    method: request.method ?? 'GET',
    credentials: 'same-origin',
    headers,
  };
  if (request.signal) init.signal = request.signal;
  if (request.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(request.body);
  }

  let response: Response;
  try {
    response = await fetch(API_BASE + path, init);
  } catch (error) {
    if (request.signal?.aborted) throw error; // the caller cancelled; not a network fault
    throw new NetworkError(error);
  }

  const body = response.status === 204 ? undefined : await readJson(response);
  if (!response.ok) {
    if (isErrorBody(body)) {
      throw new ApiError(body.code, body.message, body.data?.status ?? response.status, body.data);
    }
    throw new ApiError(
      FALLBACK_CODES[response.status] ?? 'svc_internal',
      `The server answered with an unexpected error (HTTP ${response.status}). Please try again.`,
      response.status,
    );
  }
  return { data: body as T, status: response.status, headers: response.headers };
}

/** `apiRequest` for callers that need only the body. */
export async function api<T>(path: string, request: ApiRequest = {}): Promise<T> {
  return (await apiRequest<T>(path, request)).data;
}

/** The sentence to show a person for any error a request or page may throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof NetworkError) return error.message;
  return 'Something went wrong. Please try again.';
}
