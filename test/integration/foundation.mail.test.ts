import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { DEFAULT_OUTBOX_RETENTION_DAYS, pruneOutbox, queueMail } from '../../server/mail/mailer';
import { toUtcString } from '../../shared/time';
import { useTestServer } from '../helpers/test-server';
import { loginAs, apiClient } from '../helpers/http';
import { startSmtpServer } from '../helpers/smtp';

describe('mail over SMTP (SMTP_URL set)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp?.close());
  const { server: srv } = useTestServer({ env: () => ({ SMTP_URL: smtp.url, SVC_JOBS: 'off', SVC_MAIL_FROM: 'svc <noreply@example.test>' }), login: false });

  it('a queued message is delivered to the SMTP server with its attachment, and marked sent', async () => {
    const { db, jobs } = srv.server.ctx;
    await queueMail(db, {
      to: 'visitor@example.test',
      subject: 'Your booking',
      text: 'See you soon',
      attachments: [{ filename: 'invite.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' }],
    });
    expect(smtp.received).toHaveLength(0); // nothing is sent inside the request
    await jobs.runDue();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['visitor@example.test']);
    expect(smtp.received[0]!.raw).toContain('Subject: Your booking');
    expect(smtp.received[0]!.raw).toMatch(/filename=invite\.ics/);
    const admin = await loginAs(srv.url, srv.admin.email, srv.admin.password);
    const outbox = await admin.api.get('/outbox');
    expect(outbox.body[0]).toMatchObject({
      to: 'visitor@example.test',
      subject: 'Your booking',
      state: 'sent',
      attachments: [{ filename: 'invite.ics', contentType: 'text/calendar' }],
    });
    expect(outbox.body[0].sentUtc).toMatch(/^\d{4}-/);
    await jobs.runDue();
    expect(smtp.received).toHaveLength(1); // a finished message is never sent twice
  });
});

describe('mail without SMTP_URL', () => {
  const { server: srv } = useTestServer({ env: { SVC_JOBS: 'off' }, login: false });

  it('messages are kept in the outbox and written as .eml files under the data dir', async () => {
    const { db, jobs } = srv.server.ctx;
    const id = await queueMail(db, { to: 'a@example.test', subject: 'Hello', text: 'Body text' });
    await jobs.runDue();
    const file = path.join(srv.dataDir, 'mail', `${id!}.eml`);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('Subject: Hello');
    const admin = await loginAs(srv.url, srv.admin.email, srv.admin.password);
    const outbox = await admin.api.get('/outbox');
    expect(outbox.headers.get('x-total-count')).toBe('1');
    expect(outbox.body[0]).toMatchObject({ id, state: 'saved', text: 'Body text' });
  });

  it('GET /outbox is for administrators only', async () => {
    expect((await apiClient(srv.url).get('/outbox')).status).toBe(401);
  });
});

describe('mail deduplication', () => {
  const { server: srv } = useTestServer({ env: { SVC_JOBS: 'off' }, login: false });

  it('a second message with a queued dedupe key writes no outbox row and answers null', async () => {
    const { db } = srv.server.ctx;
    expect(await queueMail(db, { to: 'a@example.test', subject: 'One', text: '1' }, { dedupeKey: 'k:1' })).toEqual(expect.any(Number));
    expect(await queueMail(db, { to: 'a@example.test', subject: 'Two', text: '2' }, { dedupeKey: 'k:1' })).toBeNull();
    const admin = await loginAs(srv.url, srv.admin.email, srv.admin.password);
    const outbox = await admin.api.get('/outbox');
    expect(outbox.body.map((m: { subject: string }) => m.subject)).toEqual(['One']);
  });
});

describe('the outbox prunes itself', () => {
  const { server: srv } = useTestServer({ env: { SVC_JOBS: 'off' }, login: false });

  it('drops mail sent, saved or withdrawn more than the retention ago; keeps failed, queued and recent mail', async () => {
    const { db } = srv.server.ctx;
    const day = 86_400_000;
    const ids: Record<string, number> = {};
    for (const [name, state, ageDays] of [
      ['oldSent', 'sent', 31],
      ['oldSaved', 'saved', 40],
      ['oldCancelled', 'cancelled', 31],
      ['oldFailed', 'failed', 90],
      ['oldQueued', 'queued', 31],
      ['recentSent', 'sent', 29],
    ] as const) {
      const [row] = await queryRows<{ id: number }>(
        db,
        sql`insert into svc_outbox (to_address, subject, text, state, created_utc, sent_utc)
            values ('prune@example.test', ${name}, 'x', ${state}, ${toUtcString(Date.now() - ageDays * day)}, ${state === 'queued' ? null : toUtcString(Date.now() - ageDays * day)})
            returning id`,
      );
      ids[name] = row!.id;
    }
    expect(await pruneOutbox(db, DEFAULT_OUTBOX_RETENTION_DAYS)).toBe(3);
    const left = await queryRows<{ subject: string }>(db, sql`select subject from svc_outbox where to_address = 'prune@example.test' order by id`);
    expect(left.map((r) => r.subject)).toEqual(['oldFailed', 'oldQueued', 'recentSent']);
  });
});

describe('the outbox view masks secrets', () => {
  const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });

  it('GET /outbox shows no cancel token, manage token or ticket code; the stored mail keeps them for delivery', async () => {
    const token = `${'c'.repeat(20)}T0kenWithMixedCase_-${'x'.repeat(24)}`;
    const code = 'AbCdEfGhIjKlMnOpQrStUvWx';
    await queueMail(srv.server.ctx.db, {
      to: 'masked@example.test',
      subject: 'Your ticket',
      text: `Cancel: https://svc.example.test/cancel/${token}\nTicket code: ${code}`,
      html: `<a href="https://svc.example.test/manage/${token}">Manage</a> <code>${code}</code>`,
    });
    const res = await admin.api.get('/outbox?to=masked@example.test');
    expect(res.status).toBe(200);
    const shown = JSON.stringify(res.body);
    expect(shown).not.toContain(token);
    expect(shown).not.toContain(code);
    expect(res.body[0].text).toBe('Cancel: https://svc.example.test/cancel/••••••\nTicket code: ••••••');
    const [stored] = await queryRows<{ text: string }>(srv.server.ctx.db, sql`select text from svc_outbox where to_address = 'masked@example.test'`);
    expect(stored!.text).toContain(token);
  });
});
