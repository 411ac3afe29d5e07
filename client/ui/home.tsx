import type { JSX } from 'solid-js';
import { Page } from './page';
import { A } from '../router';
import { t } from '../i18n/i18n';

/** The product's name, the same in every language (the page title of the start page). */
const PRODUCT_NAME = 'svc';

/** The start page is a visitor's: where to sign up or book. Staff go to /door and /admin directly. */
export default function HomePage(): JSX.Element {
  return (
    <Page title={PRODUCT_NAME} heading={t('ui.home.heading')}>
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
