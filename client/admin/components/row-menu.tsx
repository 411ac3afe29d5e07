import { createSignal, createUniqueId, For, onCleanup, Show, type JSX } from 'solid-js';

export interface RowMenuItem {
  label: string;
  onSelect: () => void;
  /** Destructive: shown in the error colour. */
  danger?: boolean;
}

/**
 * A row's actions behind one compact button (WAI-ARIA menu button pattern): the button says
 * which row it acts on, Enter, Space or ↓ opens the menu on its first item, ↑ on its last; ↑ ↓
 * Home End move, Escape closes back to the button, Tab and a click elsewhere close it. The
 * menu is fixed to the viewport, so a scrolling table does not clip it; it follows its button
 * when something scrolls and closes when the button leaves the screen.
 * After a choice the button has focus again, so a dialog the choice opens returns focus there.
 */
export function RowMenu(props: { label: string; items: readonly RowMenuItem[] }): JSX.Element {
  const id = createUniqueId();
  const [open, setOpen] = createSignal(false);
  const [place, setPlace] = createSignal<{ top?: number; bottom?: number; right: number }>({ right: 0 });
  let button: HTMLButtonElement | undefined;
  let menu: HTMLDivElement | undefined;

  const items = () => [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const focusItem = (index: number) => {
    const all = items();
    if (all.length) all[(index + all.length) % all.length]!.focus();
  };

  const onOutside = (event: Event) => {
    if (!menu?.contains(event.target as Node) && !button?.contains(event.target as Node)) close(false);
  };
  // The menu follows its button when the page or the table scrolls, and closes once the button is
  // out of sight. (Closing on any scroll lost the menu to the scroll that brought the button into
  // view: scroll events arrive a frame late, after the menu had opened.)
  const onScroll = (event: Event) => {
    if (!button || menu?.contains(event.target as Node)) return;
    const box = button.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) close(false);
    else placeBy(box);
  };
  function listen(on: boolean): void {
    const method = on ? 'addEventListener' : 'removeEventListener';
    document[method]('pointerdown', onOutside, true);
    document[method]('scroll', onScroll, true);
    window[method]('resize', onScroll);
  }
  onCleanup(() => listen(false));

  /** Below the button, or above it when the rest of the viewport is too short for the menu. */
  function placeBy(box: DOMRect): void {
    const right = Math.max(8, window.innerWidth - box.right);
    const room = window.innerHeight - box.bottom;
    setPlace(room < 48 * props.items.length + 16 ? { bottom: window.innerHeight - box.top + 4, right } : { top: box.bottom + 4, right });
  }

  function show(first: 'first' | 'last'): void {
    if (!button) return;
    placeBy(button.getBoundingClientRect());
    setOpen(true);
    listen(true);
    queueMicrotask(() => focusItem(first === 'first' ? 0 : -1));
  }

  function close(refocus: boolean): void {
    if (!open()) return;
    setOpen(false);
    listen(false);
    if (refocus) button?.focus();
  }

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      show(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const keys: Record<string, () => void> = {
      ArrowDown: () => focusItem(at + 1),
      ArrowUp: () => focusItem(at - 1),
      Home: () => focusItem(0),
      End: () => focusItem(-1),
      Escape: () => close(true),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      event.stopPropagation();
      action();
    } else if (event.key === 'Tab') close(false);
  };

  const choose = (item: RowMenuItem) => {
    close(true);
    item.onSelect();
  };

  return (
    <div class="row-menu">
      <button
        ref={button}
        id={`${id}-button`}
        type="button"
        class="button button-small button-quiet row-menu-button"
        aria-haspopup="menu"
        aria-expanded={open()}
        aria-controls={open() ? `${id}-menu` : undefined}
        aria-label={props.label}
        title={props.label}
        onClick={() => (open() ? close(true) : show('first'))}
        onKeyDown={onButtonKey}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <Show when={open()}>
        <div
          ref={menu}
          id={`${id}-menu`}
          class="row-menu-list"
          role="menu"
          aria-labelledby={`${id}-button`}
          style={{
            top: place().top === undefined ? undefined : `${place().top}px`,
            bottom: place().bottom === undefined ? undefined : `${place().bottom}px`,
            right: `${place().right}px`,
          }}
          onKeyDown={onMenuKey}
        >
          <For each={props.items}>
            {(item) => (
              <button
                type="button"
                role="menuitem"
                tabindex="-1"
                class="row-menu-item"
                classList={{ 'row-menu-danger': item.danger }}
                onClick={() => choose(item)}
              >
                {item.label}
              </button>
            )}
          </For>
        </div>
      </Show>
    </div>
  );
}
