import { Show, type JSX } from 'solid-js';
import type { Organization } from '../../shared/organization';
import { t } from '../i18n/i18n';

/**
 * The organization's mark in a header: its logo when it has one (`logoUrl`), else the app icon,
 * beside its name (docs/decisions/050-organization-identity.md).
 */
export function OrganizationMark(props: { name: string; logoUrl?: string | null }): JSX.Element {
  return (
    <>
      <Show when={props.logoUrl} fallback={<img src="/icons/icon-192.png" alt="" width="28" height="28" />}>
        {(src) => <img class="brand-logo" src={src()} alt="" height="28" />}
      </Show>
      <span class="brand-name">{props.name}</span>
    </>
  );
}

/** Public pages' footer: the organization's contact address, privacy and imprint links, where set. */
export function OrganizationFooter(props: { organization: Organization }): JSX.Element {
  const o = () => props.organization;
  return (
    <Show when={o().contactEmail || o().privacyUrl || o().imprintUrl}>
      <footer class="site-footer">
        <nav aria-label={t('common.footer.label')}>
          <ul>
            <Show when={o().contactEmail}>
              <li>
                <a href={`mailto:${o().contactEmail}`}>{t('common.footer.contact')}</a>
              </li>
            </Show>
            <Show when={o().privacyUrl}>
              <li>
                <a href={o().privacyUrl} rel="noopener">
                  {t('common.footer.privacy')}
                </a>
              </li>
            </Show>
            <Show when={o().imprintUrl}>
              <li>
                <a href={o().imprintUrl} rel="noopener">
                  {t('common.footer.imprint')}
                </a>
              </li>
            </Show>
          </ul>
        </nav>
      </footer>
    </Show>
  );
}
