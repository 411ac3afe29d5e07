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
  /**
   * On a phone each row stacks as a card (`.table-stack`), its cells labelled by `CellLabel`; the
   * table's roles are written out, since a table laid out as blocks may lose them. The rows then
   * carry `role="row"` and their cells `role="cell"`.
   */
  stack?: boolean;
  children: (row: T, index: () => number) => JSX.Element;
}): JSX.Element {
  const classes = () => ['table', props.stack ? 'table-stack' : '', props.class ?? ''].filter(Boolean).join(' ');
  return (
    <div class="table-scroll" role="region" aria-labelledby={props.labelledBy} aria-label={props.label} tabindex="0">
      <table class={classes()} role={props.stack ? 'table' : undefined}>
        <thead role={props.stack ? 'rowgroup' : undefined}>
          <tr role={props.stack ? 'row' : undefined}>
            <For each={props.columns}>
              {(column) => (
                <th scope="col" role={props.stack ? 'columnheader' : undefined}>
                  {column}
                </th>
              )}
            </For>
          </tr>
        </thead>
        <tbody role={props.stack ? 'rowgroup' : undefined}>
          <For each={props.rows}>{props.children}</For>
        </tbody>
      </table>
    </div>
  );
}

/** A stacked table's cell label: shown on a phone only, where the header row is hidden; screen readers have the header. */
export function CellLabel(props: { children: JSX.Element }): JSX.Element {
  return (
    <span class="cell-label" aria-hidden="true">
      {props.children}
    </span>
  );
}
