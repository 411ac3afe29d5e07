import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_DIST, ensureClientBuilt, ROOT } from './build-client';
import { EnvError, loadEnv } from './env';
import { PluginError } from './plugins/load';
import { startServer } from './main';
import { withoutParams } from './logger';
import { surviveDriverConnectionLoss } from './db/driver-faults';

// `npm start`: build the PWA when needed, start the server, stop gracefully on signals.
async function main(): Promise<void> {
  const env = loadEnv();
  if (!process.argv.includes('--no-build')) ensureClientBuilt((line) => process.stdout.write(`${line}\n`));
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const server = await startServer(env, { staticDir: CLIENT_DIST, version });
  surviveDriverConnectionLoss(server.ctx.logger);
  const out = process.stdout;
  out.write(
    `svc ${version} listening on ${server.url} (database: ${server.ctx.database.kind === 'pglite' ? `PGlite in ${path.join(env.dataDir, 'pglite')}` : 'PostgreSQL'})\n`,
  );
  if (server.firstAdministrator) {
    const admin = server.firstAdministrator;
    out.write(`First administrator created: ${admin.email}\n`);
    if (admin.generatedPassword) out.write(`  password: ${admin.generatedPassword}   (shown once; change it after signing in)\n`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    out.write(`${signal}: finishing requests and jobs…\n`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof EnvError || err instanceof PluginError) process.stderr.write(`${err.message}\n`);
  // A failed query's message carries its values (a password hash on the first start): never print them.
  else process.stderr.write(`svc failed to start: ${withoutParams(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
  process.exit(1);
});
