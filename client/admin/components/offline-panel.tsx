import { createResource, createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { dismissAttention, isKeptOffline, offlineEdits, onOfflineChange, setKeepOffline } from '../data';
import { adminErrorMessage } from '../errors';
import { FIELD_LABELS } from '../reconcile';
import type { QueuedEdit } from '../offline-db';
import type { AdminUser } from '../session';
import { intlLocale, t } from '../../i18n/i18n';

/** A time in the viewer's zone: the time alone today, with the date otherwise. */
export function formatTimeOfDay(ms: number): string {
  const d = new Date(ms);
  const today = new Date().toDateString() === d.toDateString();
  return new Intl.DateTimeFormat(intlLocale(), today ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** Why an edit was not saved, worded now (the store keeps a code, so a language switch follows). */
function refusalWords(edit: Pick<QueuedEdit, 'refusal' | 'reason'>): string {
  if (edit.refusal === 'deleted') return t('admin.offline.attendeeDeleted');
  if (edit.refusal === 'refused') return t('admin.offline.refused', { reason: edit.reason ?? '' });
  return edit.reason ?? '';
}

const show = (v: string | number) => (typeof v === 'number' ? new Intl.NumberFormat(intlLocale()).format(v) : t('admin.eventForm.q.quoted', { label: v }));

/**
 * "Keep offline" for one event (decision 012), what is waiting to be sent, and the edits the
 * admin must hear about after reconciliation: a field the server kept because it changed there
 * since the admin's edit (server wins), or an edit the server refused.
 */
export function OfflinePanel(props: { eventId: number; user: AdminUser }): JSX.Element {
  const [kept, setKept] = createSignal(isKeptOffline(props.user, props.eventId));
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [view, { refetch }] = createResource(kept, () => offlineEdits(props.eventId));
  onCleanup(onOfflineChange(() => void refetch()));

  const toggle = async (keep: boolean) => {
    setBusy(true);
    setError(null);
    setKept(keep);
    try {
      await setKeepOffline(props.user, props.eventId, keep);
    } catch (err) {
      setError(adminErrorMessage(err));
    } finally {
      setBusy(false);
      void refetch();
    }
  };

  const state = () => view.latest;
  return (
    <section class="offline-panel" aria-label={t('admin.attendees.offlineUse')}>
      {/* the label wraps its checkbox: box and words stay one row, and the whole row is the tap target */}
      <label class="offline-toggle">
        <input id="keep-offline" type="checkbox" checked={kept()} disabled={busy()} onChange={(e) => void toggle(e.currentTarget.checked)} />
        <span>{t('admin.attendees.keepOffline')}</span>
      </label>
      <p class="muted offline-state" role="status">
        <Show when={kept()} fallback={t('admin.attendees.needsServer')}>
          {busy() && !state()?.asOfMs
            ? t('admin.attendees.downloading')
            : state()?.asOfMs
              ? t('admin.attendees.availableOffline', { at: formatTimeOfDay(state()!.asOfMs!) })
              : t('admin.attendees.firstDownload')}
          {state()?.pending.length ? ` ${t('admin.attendees.editsWaiting', { count: state()!.pending.length })}` : ''}
        </Show>
      </p>
      <Show when={error()}>
        <p class="notice notice-error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={state()?.attention.length}>
        <div class="notice notice-attention" role="alert" aria-labelledby="attention-heading">
          <h2 id="attention-heading">{t('admin.attendees.attention')}</h2>
          <ul class="attention-list">
            <For each={state()!.attention}>
              {(edit) => (
                <li>
                  <strong>{edit.label}</strong>:{' '}
                  <Show when={edit.kept.length > 0} fallback={t('admin.attendees.notSavedOffline', { reason: refusalWords(edit) })}>
                    <For each={edit.kept}>
                      {(k, i) => (
                        <>
                          {i() > 0 ? '; ' : ''}
                          {t('admin.attendees.serverKept', { field: FIELD_LABELS[k.field], server: show(k.server), mine: show(k.mine) })}
                        </>
                      )}
                    </For>
                    .
                    <Show when={edit.sent.length > 0}>
                      {' '}
                      {t('admin.attendees.savedFields', {
                        fields: new Intl.ListFormat(intlLocale(), { type: 'conjunction', style: 'narrow' }).format(edit.sent.map((f) => FIELD_LABELS[f])),
                      })}
                    </Show>
                  </Show>{' '}
                  <button
                    type="button"
                    class="button button-small button-quiet"
                    onClick={() => void dismissAttention(edit.clientId)}
                    aria-label={t('admin.attendees.dismissLabel', { name: edit.label })}
                  >
                    {t('admin.attendees.dismiss')}
                  </button>
                </li>
              )}
            </For>
          </ul>
        </div>
      </Show>
    </section>
  );
}
