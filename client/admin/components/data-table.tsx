import { For, type JSX } from 'solid-js';

/**
 * The admin pages' tables: a region keyboard users can focus to scroll sideways on a narrow
 * screen, named by its heading (`labelledBy`) or a `label`; one header row; one row per item, each
 * page writing its own `<tr>`.
 */
export function DataTable<T>(props: {
  labelledBy?: string;
  label?: string;
  /** Extra classes beside `table`. */
  class?: string;
  columns: readonly string[];
  rows: readonly T[];
  children: (row: T, index: () => number) => JSX.Element;
}): JSX.Element {
  return (
    <div class="table-scroll" role="region" aria-labelledby={props.labelledBy} aria-label={props.label} tabindex="0">
      <table class={props.class ? `table ${props.class}` : 'table'}>
        <thead>
          <tr>
            <For each={props.columns}>{(column) => <th scope="col">{column}</th>}</For>
          </tr>
        </thead>
        <tbody>
          <For each={props.rows}>{props.children}</For>
        </tbody>
      </table>
    </div>
  );
}
