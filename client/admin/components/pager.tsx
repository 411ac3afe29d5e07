import { Show, type JSX } from 'solid-js';
import { t, tx } from '../../i18n/i18n';

const hidden = (chunks: JSX.Element[]): JSX.Element => <span class="visually-hidden">{chunks}</span>;

/** Previous / next through a list the server answers a page at a time; nothing when it fits one page. */
export function Pager(props: { page: number; perPage: number; total: number; what: string; onPage: (page: number) => void }): JSX.Element {
  const pages = () => Math.max(1, Math.ceil(props.total / props.perPage));
  return (
    <Show when={pages() > 1}>
      <nav class="pager" aria-label={t('admin.common.pagerLabel', { what: props.what })}>
        <button type="button" class="button button-small button-quiet" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
          {tx('admin.common.pagerPrevious', { h: hidden })}
        </button>
        <span class="pager-position">{t('admin.common.pagerPosition', { page: props.page, pages: pages() })}</span>
        <button type="button" class="button button-small button-quiet" disabled={props.page >= pages()} onClick={() => props.onPage(props.page + 1)}>
          {tx('admin.common.pagerNext', { h: hidden })}
        </button>
      </nav>
    </Show>
  );
}
