import type { JSX } from 'solid-js';
import { Page } from './page';
import { A } from '../router';
import { t } from '../i18n/i18n';
import { organization } from './organization';
import { displayName } from '../../shared/organization';

/** The start page is a visitor's: where to sign up or book. Staff go to /door and /admin directly. */
export default function HomePage(): JSX.Element {
  return (
    <Page title={displayName(organization())} heading={t('ui.home.heading')}>
      <p class="lead">{t('ui.home.lead')}</p>
      <ul class="cards">
        <li>
          <A href="/events" class="card">
            <span class="card-title">{t('ui.home.events')}</span>
            <span class="card-text">{t('ui.home.eventsText')}</span>
          </A>
        </li>
      </ul>
    </Page>
  );
}
