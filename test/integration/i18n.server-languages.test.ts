/**
 * The languages the server keeps (docs/decisions/027-languages.md): the organization's default
 * (Settings), an event's language and each user's own; the page shell falling back to them after
 * the reader's own choice and browser; API error messages in the language a request names.
 */
import { describe, expect, it } from 'vitest';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/api/router';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin } = useTestServer({ client: true, env: { SVC_JOBS: 'off' } });

async function shellLang(path: string, headers: Record<string, string> = {}): Promise<{ tag: string; contentLanguage: string | null }> {
  const res = await fetch(`${srv.url}${path}`, { headers: { 'accept-encoding': 'identity', ...headers } });
  expect(res.status).toBe(200);
  const tag = /<html\b[^>]*>/i.exec(await res.text())?.[0] ?? '';
  return { tag, contentLanguage: res.headers.get('content-language') };
}

async function createEvent(fields: Record<string, unknown>) {
  const res = await admin.api.post('/events', { title: 'Konzert', startsUtc: '2030-05-01 18:00:00', status: 'published', ...fields });
  expect(res.status).toBe(201);
  return res.body as { id: number; language: string | null };
}

describe('the organization’s default language (Settings)', () => {
  it('is English until chosen, round-trips as defaultLanguage, refuses a language svc does not speak, and null puts English back', async () => {
    expect((await admin.api.get('/settings')).body.defaultLanguage).toBe('en');
    const saved = await admin.api.patch('/settings', { defaultLanguage: 'pt-BR' });
    expect(saved.status).toBe(200);
    expect(saved.body.defaultLanguage).toBe('pt-BR');
    expect((await admin.api.get('/settings')).body.defaultLanguage).toBe('pt-BR');

    const refused = await admin.api.patch('/settings', { defaultLanguage: 'ja' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('svc_invalid_param');
    expect(refused.body.data.params.defaultLanguage).toBe('must be one of en, de, fr, es, it, nl, pt-BR, ar');
    expect((await admin.api.get('/settings')).body.defaultLanguage).toBe('pt-BR');

    expect((await admin.api.patch('/settings', { defaultLanguage: null })).body.defaultLanguage).toBe('en');
  });
});

describe('an event’s language', () => {
  it('is null (the organization’s default) unless given, round-trips on create and update, and refuses an unknown one', async () => {
    expect((await createEvent({})).language).toBeNull();
    const event = await createEvent({ language: 'fr' });
    expect(event.language).toBe('fr');
    expect((await admin.api.get(`/events/${event.id}`)).body.language).toBe('fr');
    expect((await admin.api.patch(`/events/${event.id}`, { language: 'ar' })).body.language).toBe('ar');
    const refused = await admin.api.patch(`/events/${event.id}`, { language: 'fr-CA' });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.data.params)).toEqual(['language']);
    expect((await admin.api.patch(`/events/${event.id}`, { language: null })).body.language).toBeNull();
  });
});

describe('each user’s own language', () => {
  it('GET /auth/me carries it; PATCH /auth/me sets and clears it; an administrator may set it with PATCH /users/:id', async () => {
    const me = await admin.api.get('/auth/me');
    expect(me.body.language).toBeNull();
    const set = await admin.api.patch('/auth/me', { language: 'de' });
    expect(set.status).toBe(200);
    expect(set.body.language).toBe('de');
    expect((await admin.api.get('/auth/me')).body.language).toBe('de');
    expect((await admin.api.patch('/auth/me', { language: 'klingon' })).status).toBe(400);
    expect((await admin.api.patch('/auth/me', { language: null })).body.language).toBeNull();

    const staff = await admin.api.post('/users', { email: `lang-${Date.now()}@example.test`, role: 'staff', language: 'nl' });
    expect(staff.status).toBe(201);
    expect(staff.body.language).toBe('nl');
    expect((await admin.api.patch(`/users/${staff.body.id}`, { language: 'it' })).body.language).toBe('it');
    expect((await admin.api.get(`/users/${staff.body.id}`)).body.language).toBe('it');
  });
});

describe('the page shell after the reader’s own choice and browser', () => {
  it('speaks a German event’s language to a browser asking only for Japanese, lets the visitor’s cookie win, and falls back to the organization’s default elsewhere', async () => {
    const german = await createEvent({ language: 'de' });
    const unset = await createEvent({});
    const draft = await createEvent({ language: 'de', status: 'draft' });

    expect(await shellLang(`/events/${german.id}`, { 'accept-language': 'ja' })).toEqual({ tag: '<html lang="de" dir="ltr">', contentLanguage: 'de' });
    expect((await shellLang(`/events/${german.id}`, { 'accept-language': 'ja', cookie: 'svc_lang=fr' })).tag).toBe('<html lang="fr" dir="ltr">');
    expect((await shellLang(`/events/${german.id}`, { 'accept-language': 'es-MX' })).tag).toBe('<html lang="es" dir="ltr">');

    // with nothing chosen anywhere the fallback is English; a new default is heard at once
    expect((await shellLang(`/events/${unset.id}`, { 'accept-language': 'ja' })).tag).toBe('<html lang="en" dir="ltr">');
    expect((await admin.api.patch('/settings', { defaultLanguage: 'ar' })).status).toBe(200);
    try {
      expect(await shellLang(`/events/${unset.id}`, { 'accept-language': 'ja' })).toEqual({ tag: '<html lang="ar" dir="rtl">', contentLanguage: 'ar' });
      expect((await shellLang('/book/1', { 'accept-language': 'ja' })).tag).toBe('<html lang="ar" dir="rtl">');
      expect((await shellLang('/events')).tag).toBe('<html lang="ar" dir="rtl">');
      // a draft's page is not the public's: its language is not used
      expect((await shellLang(`/events/${draft.id}`, { 'accept-language': 'ja' })).tag).toBe('<html lang="ar" dir="rtl">');
      expect((await shellLang(`/events/${german.id}`)).tag).toBe('<html lang="de" dir="ltr">');
    } finally {
      await admin.api.patch('/settings', { defaultLanguage: null });
    }
    expect((await shellLang('/events')).tag).toBe('<html lang="en" dir="ltr">');
  });
});

describe('API error messages', () => {
  it('are in German for Accept-Language: de and in French for ?lang=fr, the code and status unchanged; without a language exactly as before', async () => {
    const plain = await admin.api.get('/events/99999999');
    expect(plain.status).toBe(404);
    expect(plain.body).toMatchObject({ code: 'svc_not_found', message: 'No such event.' });

    const german = await admin.api.get('/events/99999999', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' });
    expect(german.status).toBe(404);
    expect(german.body).toMatchObject({ code: 'svc_not_found', message: 'Nicht gefunden.', data: { status: 404 } });

    const english = await admin.api.get('/events/99999999', { 'accept-language': 'en-GB' });
    expect(english.body.message).toBe('No such event.');

    const invalid = await admin.api.post('/events?lang=fr', { startsUtc: 'tomorrow' }, { 'accept-language': 'de' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('svc_invalid_param');
    expect(invalid.body.message).toMatch(/^Certains champs sont manquants ou invalides : /);
    expect(invalid.body.message).toContain('title');

    const anonymous = await fetch(`${srv.url}/svc/v1/auth/me`, { headers: { 'accept-language': 'ar' } });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'svc_unauthorized', message: 'يُرجى تسجيل الدخول.' });
    const unknownRoute = await fetch(`${srv.url}/svc/v1/nowhere`, { headers: { 'accept-language': 'nl' } });
    expect(await unknownRoute.json()).toMatchObject({ code: 'svc_not_found', message: 'Niet gevonden.' });
  });

  it('over tRPC too: auth.updateMe refuses an unknown language in Dutch for Accept-Language: nl, as before without it', async () => {
    const client = (headers: Record<string, string>) =>
      createTRPCClient<AppRouter>({
        links: [httpBatchLink({ url: `${srv.url}/trpc`, transformer: superjson, headers: () => ({ cookie: admin.cookie, origin: srv.url, ...headers }) })],
      });
    const refusal = async (headers: Record<string, string>) => {
      const err = await client(headers)
        .auth.updateMe.mutate({ language: 'xx' as never })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TRPCClientError);
      return err as TRPCClientError<AppRouter>;
    };
    const dutch = await refusal({ 'accept-language': 'nl-BE' });
    expect(dutch.message).toBe('Sommige velden ontbreken of zijn ongeldig: language.');
    expect(dutch.data).toMatchObject({
      svcCode: 'svc_invalid_param',
      httpStatus: 400,
      params: { language: 'must be one of en, de, fr, es, it, nl, pt-BR, ar' },
    });
    expect((await refusal({})).message).toBe('Invalid parameter(s): language');
  });
});
