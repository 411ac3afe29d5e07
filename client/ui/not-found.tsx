import type { JSX } from 'solid-js';
import { Page } from './page';
import { A } from '../router';
import { t } from '../i18n/i18n';

export default function NotFoundPage(): JSX.Element {
  return (
    <Page title={t('ui.notFound.title')}>
      <p>{t('ui.notFound.text')}</p>
      <p>
        <A href="/">{t('ui.notFound.start')}</A>
      </p>
    </Page>
  );
}
