/**
 * A real CalDAV server for tests: Debian's Radicale on a free local port, with a temporary
 * storage folder and one user (htpasswd, plain). `start` answers once it serves; `stop` ends the
 * process and removes the folder. Calendars are made with MKCALENDAR and filled with PUT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const RADICALE_BIN = '/usr/bin/radicale';

export interface Radicale {
  url: string;
  username: string;
  password: string;
  /** Every request Radicale logged since start (method and path), oldest first. */
  requests(): string[];
  /** Waits until every request answered so far is in `requests()` (a marker request is logged after them). */
  settled(): Promise<void>;
  /** Makes a calendar collection `/<user>/<name>/` and answers its URL. */
  makeCalendar(name: string): Promise<string>;
  /** PUTs one iCalendar object into a calendar. */
  putEvent(calendarUrl: string, uid: string, ics: string): Promise<void>;
  deleteEvent(calendarUrl: string, uid: string): Promise<void>;
  /** Stops the server and keeps its storage and port: the calendar server is down until `resume`. */
  pause(): Promise<void>;
  /** Starts it again on the same port with the same storage; answers once it serves. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function startRadicale(username = 'host', password = 'app-password-Zq7'): Promise<Radicale> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-radicale-'));
  const users = path.join(dir, 'users');
  await writeFile(users, `${username}:${password}\n`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const launch = (): ChildProcess =>
    spawn(
      RADICALE_BIN,
      [
        '--server-hosts',
        `127.0.0.1:${port}`,
        '--auth-type',
        'htpasswd',
        '--auth-htpasswd-filename',
        users,
        '--auth-htpasswd-encryption',
        'plain',
        '--auth-delay',
        '0',
        '--storage-filesystem-folder',
        path.join(dir, 'collections'),
        '--rights-type',
        'owner_only',
        '--logging-level',
        'info',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: dir } },
    );
  let child = launch();
  const log: string[] = [];
  const collect = (chunk: Buffer) => log.push(...chunk.toString().split('\n'));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  let markers = 0;
  const auth = { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
  async function ready(): Promise<void> {
    // ready when it answers an authenticated request
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`radicale exited: ${log.join('\n')}`);
      const ok = await fetch(`${url}/`, { method: 'PROPFIND', headers: { ...auth, depth: '0' } }).then(
        (r) => r.status < 500,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`radicale did not start: ${log.join('\n')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  await ready();

  return {
    url,
    username,
    password,
    requests: () => log.filter((line) => /(PROPFIND|REPORT|GET|PUT|DELETE|MKCALENDAR) request for/.test(line) && !line.includes('/svc-marker-')),
    async settled() {
      const marker = `/svc-marker-${++markers}`;
      const seen = () => log.some((line) => line.includes(marker));
      const logged = new Promise<void>((resolve) => {
        const check = () => {
          if (!seen()) return;
          child.stdout!.off('data', check);
          child.stderr!.off('data', check);
          resolve();
        };
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
      });
      await fetch(`${url}${marker}`, { headers: auth });
      if (!seen()) await logged;
    },
    async makeCalendar(name) {
      const target = `${url}/${username}/${name}/`;
      const body = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>${name}</D:displayname>
<C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>`;
      const res = await fetch(target, { method: 'MKCALENDAR', headers: { ...auth, 'content-type': 'application/xml' }, body });
      if (res.status !== 201) throw new Error(`MKCALENDAR ${target}: ${res.status} ${await res.text()}`);
      return target;
    },
    async putEvent(calendarUrl, uid, ics) {
      const res = await fetch(`${calendarUrl}${uid}.ics`, { method: 'PUT', headers: { ...auth, 'content-type': 'text/calendar; charset=utf-8' }, body: ics });
      if (res.status !== 201 && res.status !== 204) throw new Error(`PUT ${uid}: ${res.status} ${await res.text()}`);
    },
    async deleteEvent(calendarUrl, uid) {
      const res = await fetch(`${calendarUrl}${uid}.ics`, { method: 'DELETE', headers: auth });
      if (res.status !== 200 && res.status !== 204) throw new Error(`DELETE ${uid}: ${res.status}`);
    },
    async pause() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
    async resume() {
      if (child.exitCode === null) return;
      child = launch();
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      await ready();
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
