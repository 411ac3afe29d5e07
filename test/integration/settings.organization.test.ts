/**
 * The organization's identity (docs/decisions/050-organization-identity.md): GET/PUT
 * /settings/organization, its validation and contrast rule, its name shared with the seller's, and
 * where it shows: the page shell (escaped), the manifest, every mail's From and layout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { queueMail } from '../../server/mail/mailer';
import { apiClient } from '../helpers/http';
import { mimeParts, startSmtpServer } from '../helpers/smtp';
import { useTestServer } from '../helpers/test-server';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());

const {
  server: srv,
  admin,
  db,
} = useTestServer({
  client: true,
  env: () => ({ SVC_JOBS: 'off', SMTP_URL: smtp.url, SVC_MAIL_FROM: 'svc <noreply@example.test>' }),
});

const IDENTITY = {
  name: '  Hafen Kultur ',
  accentColor: '#0B5CAD',
  contactEmail: 'hello@hafen.example',
  privacyUrl: 'https://hafen.example/privacy',
  imprintUrl: 'http://hafen.example/imprint',
  mailSenderName: 'Hafen Kultur Tickets',
};

async function shell(path: string): Promise<string> {
  const res = await fetch(`${srv.url}${path}`, { headers: { 'accept-language': 'en' } });
  expect(res.status).toBe(200);
  return res.text();
}

describe('GET/PUT /settings/organization', () => {
  it('answers empty fields until set; a PUT stores them trimmed, the colour lowercased, and the name is the seller name the checklist counts', async () => {
    expect((await admin.api.get('/settings/organization')).body).toEqual({
      name: '',
      accentColor: null,
      contactEmail: '',
      privacyUrl: '',
      imprintUrl: '',
      mailSenderName: '',
      logo: null,
    });
    const res = await admin.api.put('/settings/organization', IDENTITY);
    expect(res.status).toBe(200);
    const stored = { ...IDENTITY, name: 'Hafen Kultur', accentColor: '#0b5cad', logo: null };
    expect(res.body).toEqual(stored);
    expect((await admin.api.get('/settings/organization')).body).toEqual(stored);
    expect((await admin.api.get('/settings')).body.sellerName).toBe('Hafen Kultur');
    const setup = (await admin.api.get('/setup')).body as { steps: Array<{ key: string; done: boolean }> };
    expect(setup.steps.find((s) => s.key === 'organization')?.done).toBe(true);
    const rows = await queryRows<{ key: string }>(db(), sql`select key from svc_settings where key like 'organization_%' order by key`);
    expect(rows.map((r) => r.key)).toEqual([
      'organization_accent_color',
      'organization_contact_email',
      'organization_imprint_url',
      'organization_mail_sender_name',
      'organization_privacy_url',
    ]);
  });

  it('a seller name changed through PATCH /settings is the organization name at once', async () => {
    await admin.api.put('/settings/organization', IDENTITY);
    expect((await admin.api.patch('/settings', { sellerName: 'Hafen Kultur GmbH' })).status).toBe(200);
    expect((await admin.api.get('/settings/organization')).body.name).toBe('Hafen Kultur GmbH');
    expect(await shell('/events')).toContain('<title>Hafen Kultur GmbH</title>');
  });

  it.each([
    ['accentColor', { accentColor: 'blue' }, /#rrggbb/],
    ['accentColor', { accentColor: '#ffcc00' }, /contrast 1\.\d+:1 is below 4\.5:1/],
    ['privacyUrl', { privacyUrl: 'javascript:alert(1)' }, /http/],
    ['imprintUrl', { imprintUrl: 'ftp://hafen.example/imprint' }, /http/],
    ['contactEmail', { contactEmail: 'not an address' }, /email/],
  ])('a bad %s is 400 svc_invalid_param naming the field, and nothing is stored', async (field, bad, problem) => {
    await admin.api.put('/settings/organization', IDENTITY);
    const res = await admin.api.put('/settings/organization', { ...IDENTITY, name: 'Changed', ...bad });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { params: { [field]: expect.stringMatching(problem) } } });
    expect((await admin.api.get('/settings/organization')).body.name).toBe('Hafen Kultur');
  });

  it('a colour just dark enough for AA against every light background is taken; null puts the theme colour back', async () => {
    expect((await admin.api.put('/settings/organization', { ...IDENTITY, accentColor: '#1d6b3a' })).status).toBe(200);
    const cleared = await admin.api.put('/settings/organization', { ...IDENTITY, accentColor: null });
    expect(cleared.body.accentColor).toBeNull();
    expect(await shell('/events')).not.toContain('id="svc-accent"');
  });

  it('only an administrator reads or changes it', async () => {
    expect((await apiClient(srv.url).get('/settings/organization')).status).toBe(401);
    expect((await apiClient(srv.url).put('/settings/organization', IDENTITY)).status).toBe(401);
  });
});

describe('the identity in the page shell and the manifest', () => {
  it('an evil name stays text: the title is escaped, the data block cannot close its script, and the client reads the name back', async () => {
    const evil = '</script><script>alert(1)</script> & "Co" <b>';
    expect((await admin.api.put('/settings/organization', { ...IDENTITY, name: evil })).status).toBe(200);
    const html = await shell('/events/1');
    expect(html).toContain('<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot; &lt;b&gt;</title>');
    // the only executable script is the entry's (module src), the identity is a data block
    expect(html).not.toContain('<script>alert(1)');
    const block = /<script type="application\/json" id="svc-organization">([^<]*)<\/script>/.exec(html);
    expect(block).not.toBeNull();
    expect(JSON.parse(block![1]!)).toMatchObject({ name: evil, accentColor: '#0b5cad', privacyUrl: IDENTITY.privacyUrl });
    expect(html.match(/<\/script>/g)?.length).toBe(html.match(/<script\b/g)?.length);
  });

  it('a public page carries the accent as the light theme accent and theme colour; a staff page keeps the theme', async () => {
    await admin.api.put('/settings/organization', { ...IDENTITY, accentColor: '#7a1f5c' });
    const html = await shell('/events');
    expect(html).toContain('<title>Hafen Kultur</title>');
    expect(html).toMatch(/<style id="svc-accent">[^<]*--brand:#7a1f5c;--link:#7a1f5c/);
    expect(html).toContain('<meta name="theme-color" content="#7a1f5c" media="(prefers-color-scheme: light)"');
    const staff = await shell('/admin/settings');
    expect(staff).toContain('<title>Hafen Kultur</title>');
    expect(staff).not.toContain('id="svc-accent"');
  });

  it('without a name the shell and the manifest say svc', async () => {
    expect((await admin.api.put('/settings/organization', {})).status).toBe(200);
    expect(await shell('/events')).toContain('<title>svc</title>');
    const manifest = (await (await fetch(`${srv.url}/manifest.webmanifest?lang=en`)).json()) as { name: string };
    expect(manifest.name).toMatch(/svc/);
  });

  it('the installed app is named after the organization', async () => {
    await admin.api.put('/settings/organization', IDENTITY);
    const manifest = (await (await fetch(`${srv.url}/manifest.webmanifest?lang=de`)).json()) as { name: string; short_name: string };
    expect(manifest).toMatchObject({ name: 'Hafen Kultur', short_name: 'Hafen Kultur' });
  });
});

describe('the identity in every mail', () => {
  it("a mail leaves from the sender name with the organization's header and footer links, in the mail's language", async () => {
    await admin.api.put('/settings/organization', IDENTITY);
    const { db: mailDb, jobs } = srv.server.ctx;
    smtp.received.length = 0;
    await queueMail(mailDb, { to: 'visitor@example.test', subject: 'Ihre Anmeldung', text: 'Bis bald', language: 'de' });
    await jobs.runDue();
    expect(smtp.received).toHaveLength(1);
    const raw = smtp.received[0]!.raw;
    expect(raw).toMatch(/^From: "?Hafen Kultur Tickets"? <noreply@example\.test>/m);
    const html = mimeParts(raw).find((p) => p.type === 'text/html')!.text;
    expect(html).toMatch(/<p style="[^"]*color: #0b5cad;">Hafen Kultur<\/p>/);
    expect(html).toContain('<a href="mailto:hello@hafen.example">hello@hafen.example</a>');
    expect(html).toContain('<a href="https://hafen.example/privacy">Datenschutzerklärung</a>');
    expect(html).toContain('<a href="http://hafen.example/imprint">Impressum</a>');
  });

  it('without a sender name the From is the organization name; without either, SVC_MAIL_FROM as set and svc heads the mail', async () => {
    await admin.api.put('/settings/organization', { ...IDENTITY, mailSenderName: '' });
    const { db: mailDb, jobs } = srv.server.ctx;
    smtp.received.length = 0;
    await queueMail(mailDb, { to: 'a@example.test', subject: 'One', text: 'One' });
    await jobs.runDue();
    expect(smtp.received[0]!.raw).toMatch(/^From: "?Hafen Kultur"? <noreply@example\.test>/m);

    expect((await admin.api.put('/settings/organization', {})).status).toBe(200);
    await queueMail(mailDb, { to: 'b@example.test', subject: 'Two', text: 'Two' });
    await jobs.runDue();
    const raw = smtp.received[1]!.raw;
    expect(raw).toMatch(/^From: svc <noreply@example\.test>/m);
    const html = mimeParts(raw).find((p) => p.type === 'text/html')!.text;
    expect(html).toMatch(/<p style="[^"]*">svc<\/p>/);
    expect(html).not.toContain('<hr');
  });
});
