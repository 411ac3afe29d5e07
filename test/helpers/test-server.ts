/**
 * The one setup of every integration file: the real server on a fresh database, started
 * before the file's tests and closed after them, with the administrator signed in.
 */
import { afterAll, beforeAll } from 'vitest';
import type { AppContext } from '../../server/context';
import { loginAs, type Session } from './http';
import { startTestServer, type StartOptions, type TestServer } from './server';

export interface TestServerOptions extends Omit<StartOptions, 'env'> {
  /** Extra server environment; a function is called at start, after the `beforeAll` hooks registered before this call (e.g. the URL of an SMTP server they start). */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Sign the administrator in as `admin` (default); `false` for a file that signs in itself, or never. */
  login?: boolean;
}

/**
 * `server` and `admin` are stand-ins that read the started server and session, so they can be
 * destructured at the top level of a file and used from its hooks and tests on.
 */
export interface TestServerFixture {
  readonly server: TestServer;
  /** The administrator's session (cookie and API client); not with `login: false`. */
  readonly admin: Session;
  db(): AppContext['db'];
  hooks(): AppContext['hooks'];
}

/**
 * Call at the top level of a file (or of a `describe`): registers a `beforeAll` that starts the
 * server and signs in, and an `afterAll` that closes it, and answers the handle. Hooks the file
 * registers after this call run after the start and before the close.
 */
export function useTestServer({ env, login = true, ...opts }: TestServerOptions = {}): TestServerFixture {
  let srv: TestServer | undefined;
  let session: Session | undefined;

  beforeAll(async () => {
    srv = await startTestServer({ ...opts, env: typeof env === 'function' ? env() : env });
    if (login) session = await loginAs(srv.url, srv.admin.email, srv.admin.password);
  });
  afterAll(() => srv?.close());

  const started = (): TestServer => {
    if (!srv) throw new Error('the test server starts in beforeAll');
    return srv;
  };
  const signedIn = (): Session => {
    if (!session) throw new Error('the administrator is signed in only with login: true');
    return session;
  };
  return {
    server: {
      get url() {
        return started().url;
      },
      get admin() {
        return started().admin;
      },
      get server() {
        return started().server;
      },
      get dataDir() {
        return started().dataDir;
      },
      close: () => started().close(),
    },
    admin: {
      get cookie() {
        return signedIn().cookie;
      },
      get api() {
        return signedIn().api;
      },
    },
    db: () => started().server.ctx.db,
    hooks: () => started().server.ctx.hooks,
  };
}
