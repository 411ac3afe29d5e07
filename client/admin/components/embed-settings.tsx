import { createResource, createSignal, Show, type JSX } from 'solid-js';
import type { EmbedSettingsDto } from '../../../shared/embeds';
import { call, rpc } from '../../ui/trpc';
import { createSaveAction } from '../forms';
import { submitWith } from '../../ui/forms';
import { AsyncView } from './async-view';
import { SaveButtons, TextArea } from './fields';
import { t, tx } from '../../i18n/i18n';

const getEmbedSettings = () => call(rpc().embeds.get.query());
const updateEmbedSettings = (origins: string[]) => call(rpc().embeds.update.mutate({ origins }));

const hidden = (chunks: JSX.Element[]): JSX.Element => <span class="visually-hidden">{chunks}</span>;

/** What an organizer pastes into their website (docs/decisions/052-embeds.md); 42 and 7 stand for their own numbers. */
export function embedSnippet(appOrigin: string): string {
  return [
    `<script src="${appOrigin}/embed.js" async></script>`,
    '<svc-events></svc-events>',
    '<svc-event event="42"></svc-event>',
    '<svc-booking type="7"></svc-booking>',
    '<svc-booking type="7" popup></svc-booking>',
  ].join('\n');
}

/** Settings › Embeds: the websites allowed to show the sign-up and booking pages, and the code to paste there. */
export function EmbedSettings(): JSX.Element {
  const [settings, { refetch }] = createResource(getEmbedSettings);
  return (
    <section class="section" aria-labelledby="embeds-heading">
      <h2 id="embeds-heading">{t('admin.settings.embeds.heading')}</h2>
      <AsyncView resource={settings} retry={() => void refetch()} what={t('admin.settings.embeds.what')}>
        {(s) => <EmbedForm initial={s()} />}
      </AsyncView>
    </section>
  );
}

function EmbedForm(props: { initial: EmbedSettingsDto }): JSX.Element {
  const [text, setText] = createSignal(props.initial.origins.join('\n'));
  const saving = createSaveAction();
  const [copied, setCopied] = createSignal<string | null>(null);
  const snippet = embedSnippet(window.location.origin);
  let snippetBox: HTMLTextAreaElement | undefined;

  const save = () =>
    saving.run(async () => {
      const origins = text()
        .split(/[\s,]+/)
        .map((line) => line.trim())
        .filter(Boolean);
      const saved = await updateEmbedSettings(origins);
      setText(saved.origins.join('\n'));
    });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied(t('admin.settings.copy.copied'));
    } catch {
      snippetBox?.select();
      setCopied(t('admin.settings.copy.selected'));
    }
  };

  return (
    <>
      <form class="form form-wide" onSubmit={submitWith(save)}>
        <TextArea
          id="embed-origins"
          label={t('admin.settings.embeds.origins')}
          hint={t('admin.settings.embeds.originsHint')}
          value={text()}
          rows={4}
          onInput={(value) => {
            setText(value);
            saving.reset();
          }}
        />
        <Show when={props.initial.operatorOrigins.length > 0}>
          <p class="field-hint">{t('admin.settings.embeds.operator', { origins: props.initial.operatorOrigins.join(', ') })}</p>
        </Show>
        <SaveButtons action={saving} label={t('admin.settings.embeds.save')} />
      </form>
      <div class="field form-wide">
        <label for="embed-snippet">{t('admin.settings.embeds.snippet')}</label>
        <textarea ref={snippetBox} id="embed-snippet" readOnly rows={5} value={snippet} dir="ltr" aria-describedby="embed-snippet-hint" />
        <p id="embed-snippet-hint" class="field-hint">
          {t('admin.settings.embeds.snippetHint')}
        </p>
        <div class="button-row">
          <button type="button" class="button button-small" onClick={() => void copy()}>
            {tx('admin.settings.copy.button', { label: t('admin.settings.embeds.snippet'), h: hidden })}
          </button>
        </div>
        <p class="save-status save-ok" role="status">
          {copied() ?? ''}
        </p>
      </div>
    </>
  );
}
