import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { AsyncView } from './async-view';
import { CoverImagePicker } from './cover-image-picker';
import { SaveButtons, TextField } from './fields';
import { getOrganization, putOrganization } from '../data';
import { createSaveAction } from '../forms';
import { submitWith } from '../../ui/forms';
import { organization as shownOrganization, setOrganization } from '../../ui/organization';
import { t } from '../../i18n/i18n';
import {
  ACCENT_COLOR_RE,
  accentVerdict,
  MAIL_SENDER_NAME_MAX,
  MIN_ACCENT_CONTRAST,
  ORGANIZATION_NAME_MAX,
  ORGANIZATION_URL_MAX,
  type Organization,
} from '../../../shared/organization';

/** Settings › Organization: the identity every public page, mail and ticket carries (docs/decisions/050-organization-identity.md). */
export function OrganizationSettings(): JSX.Element {
  const [organization, { refetch }] = createResource(getOrganization);
  return (
    <section class="section" aria-labelledby="organization-heading">
      <h2 id="organization-heading">{t('admin.settings.org.heading')}</h2>
      <AsyncView resource={organization} retry={() => void refetch()} what={t('admin.settings.org.what')}>
        {(o) => (
          <>
            <OrganizationForm initial={o()} />
            <CoverImagePicker owner="logo" id={0} image={o().logo} onChange={(logo) => setOrganization({ ...shownOrganization(), logo })} />
          </>
        )}
      </AsyncView>
    </section>
  );
}

/** The colour's verdict as the admin types: contrast against the page background, AA or not. */
function AccentVerdict(props: { value: string }): JSX.Element {
  const verdict = () => {
    const value = props.value.trim();
    if (value === '') return { ok: true, text: t('admin.settings.org.accentNone') };
    if (!ACCENT_COLOR_RE.test(value)) return { ok: false, text: t('admin.settings.org.accentFormat') };
    const { ratio, passes } = accentVerdict(value.toLowerCase());
    return passes
      ? { ok: true, text: t('admin.settings.org.accentPasses', { ratio, minimum: MIN_ACCENT_CONTRAST }) }
      : { ok: false, text: t('admin.settings.org.accentFails', { ratio, minimum: MIN_ACCENT_CONTRAST }) };
  };
  return (
    <p id="org-accent-verdict" class="field-hint" classList={{ 'save-failed': !verdict().ok }} aria-live="polite">
      <Show when={ACCENT_COLOR_RE.test(props.value.trim())}>
        <span class="accent-swatch" style={{ 'background-color': props.value.trim() }} aria-hidden="true" />{' '}
      </Show>
      {verdict().text}
    </p>
  );
}

function OrganizationForm(props: { initial: Organization }): JSX.Element {
  const [name, setName] = createSignal(props.initial.name);
  const [accent, setAccent] = createSignal(props.initial.accentColor ?? '');
  const [contactEmail, setContactEmail] = createSignal(props.initial.contactEmail);
  const [privacyUrl, setPrivacyUrl] = createSignal(props.initial.privacyUrl);
  const [imprintUrl, setImprintUrl] = createSignal(props.initial.imprintUrl);
  const [mailSenderName, setMailSenderName] = createSignal(props.initial.mailSenderName);
  const saving = createSaveAction();

  const save = () =>
    saving.run(async () => {
      const saved = await putOrganization({
        name: name(),
        accentColor: accent().trim() || null,
        contactEmail: contactEmail(),
        privacyUrl: privacyUrl(),
        imprintUrl: imprintUrl(),
        mailSenderName: mailSenderName(),
      });
      setName(saved.name);
      setAccent(saved.accentColor ?? '');
      setContactEmail(saved.contactEmail);
      setPrivacyUrl(saved.privacyUrl);
      setImprintUrl(saved.imprintUrl);
      setMailSenderName(saved.mailSenderName);
      setOrganization(saved);
    });

  return (
    <form class="form form-wide" onSubmit={submitWith(save)}>
      <TextField
        id="org-name"
        label={t('admin.settings.org.name')}
        value={name()}
        onInput={setName}
        maxLength={ORGANIZATION_NAME_MAX}
        autocomplete="organization"
        hint={t('admin.settings.org.nameHint')}
      />
      <div class="field">
        <label for="org-accent">{t('admin.settings.org.accent')}</label>
        <div class="accent-field">
          <input
            id="org-accent"
            type="text"
            inputMode="text"
            spellcheck={false}
            autocomplete="off"
            placeholder="#0b5cad"
            maxLength={7}
            value={accent()}
            aria-describedby="org-accent-hint org-accent-verdict"
            onInput={(e) => setAccent(e.currentTarget.value)}
          />
          <input
            type="color"
            class="accent-picker"
            aria-label={t('admin.settings.org.accentPicker')}
            value={ACCENT_COLOR_RE.test(accent().trim()) ? accent().trim().toLowerCase() : '#0b5cad'}
            onInput={(e) => setAccent(e.currentTarget.value)}
          />
        </div>
        <p id="org-accent-hint" class="field-hint">
          {t('admin.settings.org.accentHint')}
        </p>
        <AccentVerdict value={accent()} />
      </div>
      <TextField
        id="org-contact"
        label={t('admin.settings.org.contact')}
        type="email"
        value={contactEmail()}
        onInput={setContactEmail}
        maxLength={254}
        autocomplete="email"
      />
      <TextField
        id="org-privacy"
        label={t('admin.settings.org.privacy')}
        type="url"
        value={privacyUrl()}
        onInput={setPrivacyUrl}
        maxLength={ORGANIZATION_URL_MAX}
        placeholder="https://"
      />
      <TextField
        id="org-imprint"
        label={t('admin.settings.org.imprint')}
        type="url"
        value={imprintUrl()}
        onInput={setImprintUrl}
        maxLength={ORGANIZATION_URL_MAX}
        placeholder="https://"
      />
      <TextField
        id="org-sender"
        label={t('admin.settings.org.sender')}
        value={mailSenderName()}
        onInput={setMailSenderName}
        maxLength={MAIL_SENDER_NAME_MAX}
        hint={t('admin.settings.org.senderHint')}
      />
      <SaveButtons action={saving} label={t('admin.settings.org.save')} />
    </form>
  );
}
