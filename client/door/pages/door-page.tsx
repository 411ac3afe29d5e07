import '../door-i18n';
import { createEffect, Match, onCleanup, onMount, Switch, type JSX } from 'solid-js';
import { Page } from '../../ui/page';
import { DoorScreen } from '../components/door-screen';
import { PairForm } from '../components/pair-form';
import { pairingCodeFrom } from '../scanner/input';
import { requestPersistentStorage } from '../../offline/persistent-storage';
import { doorState } from '../state';
import '../../styles/door.css';
import { t } from '../../i18n/i18n';
import { setDoorPaired } from '../../ui/door-paired';

/** `/door` (docs/api.md#overview): pairing, event choice, scanner. Dark by default (night events, battery). */
export default function DoorPage(): JSX.Element {
  const door = doorState();
  // the pairing QR opens /door#pair=CODE: the code stays in the fragment, never in a server log
  const linkCode = pairingCodeFrom(window.location.href);
  if (linkCode) window.history.replaceState(null, '', window.location.pathname + window.location.search);

  // the shell's header shows no navigation on a paired door (client/ui/door-paired.ts)
  createEffect(() => {
    const device = door.device();
    if (device !== undefined) setDoorPaired(device !== null);
  });

  onMount(() => {
    const root = document.documentElement;
    const previous = root.dataset.theme;
    root.dataset.theme = 'dark';
    onCleanup(() => {
      if (previous === undefined) delete root.dataset.theme;
      else root.dataset.theme = previous;
    });
    void requestPersistentStorage();
  });

  return (
    <Page title={t('door.page.title')}>
      <Switch>
        <Match when={door.device() === undefined}>
          <p class="status-text" aria-busy="true">
            {t('door.page.opening')}
          </p>
        </Match>
        <Match when={door.device() === null}>
          <PairForm initialCode={linkCode} />
        </Match>
        <Match when={door.device()}>{(device) => <DoorScreen device={device()} />}</Match>
      </Switch>
    </Page>
  );
}
