import { Show, type JSX } from 'solid-js';

/** Previous / next through a list the server answers a page at a time; nothing when it fits one page. */
export function Pager(props: { page: number; perPage: number; total: number; what: string; onPage: (page: number) => void }): JSX.Element {
  const pages = () => Math.max(1, Math.ceil(props.total / props.perPage));
  return (
    <Show when={pages() > 1}>
      <nav class="pager" aria-label={`Pages of ${props.what}`}>
        <button type="button" class="button button-small button-quiet" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
          ‹ Previous<span class="visually-hidden"> page</span>
        </button>
        <span class="pager-position">
          Page {props.page} of {pages()}
        </span>
        <button type="button" class="button button-small button-quiet" disabled={props.page >= pages()} onClick={() => props.onPage(props.page + 1)}>
          Next<span class="visually-hidden"> page</span> ›
        </button>
      </nav>
    </Show>
  );
}
