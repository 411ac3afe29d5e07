/** A small REST client for tests: JSON in and out, optional Bearer token or session cookie. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export function apiClient(baseUrl: string, auth: { bearer?: string; cookie?: string } = {}) {
  const origin = new URL(baseUrl).origin;
  async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined && !h['content-type']) h['content-type'] = 'application/json';
    if (auth.bearer) h.authorization = `Bearer ${auth.bearer}`;
    if (auth.cookie) {
      h.cookie = auth.cookie;
      h.origin ??= origin;
    }
    const res = await fetch(`${baseUrl}/svc/v1${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* non-JSON bodies (CSV) stay text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', path, body ?? {}, headers),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('PATCH', path, body ?? {}, headers),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>('PUT', path, body ?? {}, headers),
    delete: <T = any>(path: string, headers?: Record<string, string>) => call<T>('DELETE', path, undefined, headers),
  };
}

/** Signs in and returns a client carrying the session cookie (and the Origin header). */
export async function loginAs(baseUrl: string, email: string, password: string) {
  const res = await fetch(`${baseUrl}/svc/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { cookie, api: apiClient(baseUrl, { cookie }) };
}

/** A signed-in user: the session cookie `name=value` and an API client that sends it. */
export type Session = Awaited<ReturnType<typeof loginAs>>;
