/**
 * The server as `npm start` runs it, in a child process: for tests of what only a real process
 * shows (its start-up output, SIGTERM, a crash).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed on stdout so far. */
  output(): string;
  /** Resolves when the process has ended, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `server/start.ts` with `env` (on a fresh database) and resolves once it listens and its
 * output matches `ready` (by default: it has reported the first administrator it created).
 */
export async function startServerProcess(env: NodeJS.ProcessEnv, ready = /First administrator created: \S+\n/): Promise<ServerProcess> {
  // The same command as `npm start`; the PWA build is already fresh (vitest global setup).
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m && ready.test(out)) resolve(m[1]!);
      });
      void exited.then(({ code, signal }) => reject(new Error(`the server exited (${code ?? signal}) before listening: ${err}`)));
    });
    return { url, child, output: () => out, exited };
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
}

/** The environment of a server process on `databaseUrl`: any free port on the loopback, quiet logs, jobs off unless `extra` says otherwise. */
export function serverProcessEnv(databaseUrl: string, dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, SVC_JOBS: 'off', ...extra };
}
