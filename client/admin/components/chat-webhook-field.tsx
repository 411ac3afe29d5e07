import { createResource, createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { getChatTest, queueChatTest } from '../chat-data';
import { getSettings, updateSettings } from '../data';
import { edition } from '../edition';
import { adminErrorMessage } from '../errors';
import { createSaveAction } from '../forms';
import { submitWith } from '../../ui/forms';
import { AsyncView } from './async-view';
import { SaveButtons } from './fields';
import { t } from '../../i18n/i18n';

/** How often and how long the field asks whether the queued test went out (the job runs within seconds). */
const POLL_MS = 1000;
const POLL_LIMIT = 20;

type TestState = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'waiting' } | { kind: 'failed'; text: string };

/**
 * The team chat's address (docs/api.md#chat): a Slack-compatible incoming webhook, with a button
 * that sends a test message to the address as typed (saved or not). The server queues the test
 * and the field asks for its outcome, so the admin reads "Sent" or why it failed.
 * With `eventId` it is an event's own address (empty = the Settings default); without, the default.
 */
export function ChatWebhookField(props: { value: string; onChange: (v: string) => void; eventId?: number }): JSX.Element {
  const id = () => (props.eventId === undefined ? 'chat-webhook-default' : `chat-webhook-${props.eventId}`);
  const [test, setTest] = createSignal<TestState>({ kind: 'idle' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));

  const poll = (jobId: number, left: number) => {
    timer = setTimeout(() => {
      getChatTest(jobId).then(
        (status) => {
          if (status.state === 'sent') setTest({ kind: 'sent' });
          else if (status.state === 'failed') setTest({ kind: 'failed', text: status.error ?? t('admin.chat.notAccepted') });
          else if (left > 1) poll(jobId, left - 1);
          else setTest({ kind: 'waiting' });
        },
        (err: unknown) => setTest({ kind: 'failed', text: adminErrorMessage(err) }),
      );
    }, POLL_MS);
  };

  const sendTest = async () => {
    if (test().kind === 'sending') return;
    clearTimeout(timer);
    const url = props.value.trim();
    if (!url) {
      setTest({ kind: 'failed', text: t('admin.chat.addressFirst') });
      return;
    }
    setTest({ kind: 'sending' });
    try {
      const queued = await queueChatTest(url);
      poll(queued.id, POLL_LIMIT);
    } catch (err) {
      setTest({ kind: 'failed', text: adminErrorMessage(err) });
    }
  };

  const hint = () => (props.eventId === undefined ? t('admin.chat.hintDefault') : t('admin.chat.hintEvent'));

  return (
    <div class="field">
      <label for={id()}>{t('admin.chat.label')}</label>
      <div class="copy-field">
        <input
          id={id()}
          type="url"
          inputMode="url"
          autocomplete="off"
          placeholder={t('admin.chat.placeholder')}
          value={props.value}
          aria-describedby={`${id()}-hint ${id()}-test`}
          onInput={(e) => {
            props.onChange(e.currentTarget.value);
            setTest({ kind: 'idle' });
          }}
        />
        <button type="button" class="button button-small" aria-disabled={test().kind === 'sending'} onClick={() => void sendTest()}>
          {t('admin.chat.test')}
        </button>
      </div>
      <p id={`${id()}-hint`} class="field-hint">
        {hint()}
      </p>
      <p
        id={`${id()}-test`}
        class="save-status"
        classList={{ 'save-ok': test().kind === 'sent', 'save-failed': test().kind === 'failed' }}
        role="status"
        data-chat-test={test().kind}
      >
        <Show when={test().kind !== 'idle'}>
          {(() => {
            const state = test();
            if (state.kind === 'sending') return t('admin.chat.sending');
            if (state.kind === 'sent') return t('admin.chat.sent');
            if (state.kind === 'waiting') return t('admin.chat.waiting');
            if (state.kind === 'failed') return t('admin.chat.failed', { reason: state.text });
            return '';
          })()}
        </Show>
      </p>
    </div>
  );
}

/** Settings › Team chat (extended edition): the default address for events without their own. */
export function TeamChatSettings(): JSX.Element {
  return (
    <Show when={edition() === 'extended'}>
      <TeamChatSection />
    </Show>
  );
}

function TeamChatSection(): JSX.Element {
  const [settings, { refetch }] = createResource(getSettings);
  return (
    <section class="section" aria-labelledby="team-chat-heading">
      <h2 id="team-chat-heading">{t('admin.chat.heading')}</h2>
      <AsyncView resource={settings} retry={() => void refetch()} what={t('admin.chat.what')}>
        {(s) => <TeamChatForm initial={s().chatWebhookUrl ?? ''} />}
      </AsyncView>
    </section>
  );
}

function TeamChatForm(props: { initial: string }): JSX.Element {
  const [url, setUrl] = createSignal(props.initial);
  const saving = createSaveAction();
  const save = () =>
    saving.run(async () => {
      const saved = await updateSettings({ chatWebhookUrl: url().trim() });
      setUrl(saved.chatWebhookUrl ?? '');
    });
  return (
    <form class="form form-wide" onSubmit={submitWith(save)}>
      <ChatWebhookField value={url()} onChange={setUrl} />
      <SaveButtons action={saving} label={t('admin.chat.save')} />
    </form>
  );
}
