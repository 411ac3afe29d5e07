/* global __SVC_EMBED_MESSAGES__ */
/*
 * svc embeds (docs/decisions/052-embeds.md): <svc-events>, <svc-event event="42"> and
 * <svc-booking type="7"> show the app's own pages in an iframe on the organizer's website, sized to
 * their content. Each element draws in its own shadow root, so the host page's styles and this
 * script's never meet. The server fills in MESSAGES when it serves this file (server/embed/embed-script.ts).
 */
(() => {
  'use strict';
  const script = document.currentScript;
  if (!script || !('customElements' in window) || customElements.get('svc-events')) return;
  const APP = new URL(script.src).origin;
  const MESSAGES = __SVC_EMBED_MESSAGES__;
  const HEIGHT_MESSAGE = 'svc-embed-height';
  const frames = new Set();

  // a height is only taken from the app's origin and from one of our own frames
  window.addEventListener('message', (event) => {
    if (event.origin !== APP) return;
    const data = event.data;
    if (!data || data.type !== HEIGHT_MESSAGE || typeof data.height !== 'number' || !Number.isFinite(data.height)) return;
    for (const frame of frames) {
      if (frame.contentWindow === event.source) frame.style.height = `${Math.min(Math.max(Math.ceil(data.height), 0), 20000)}px`;
    }
  });

  function words(element) {
    const asked = (element.getAttribute('lang') || document.documentElement.lang || navigator.language || 'en').toLowerCase();
    const locales = Object.keys(MESSAGES);
    const exact = locales.find((locale) => locale.toLowerCase() === asked);
    const language = locales.find((locale) => locale.toLowerCase().split('-')[0] === asked.split('-')[0]);
    return MESSAGES[exact || language || 'en'];
  }

  function pageUrl(element, path) {
    const url = new URL(path, APP);
    url.searchParams.set('embed', '1');
    url.searchParams.set('host', window.location.origin);
    const lang = element.getAttribute('lang');
    if (lang) url.searchParams.set('lang', lang);
    const accent = element.getAttribute('accent');
    if (accent && /^#[0-9a-f]{6}$/i.test(accent)) url.searchParams.set('accent', accent);
    return url.href;
  }

  const STYLE = `
    :host { display: block; }
    :host([hidden]) { display: none; }
    iframe { display: block; inline-size: 100%; block-size: 320px; border: 0; color-scheme: normal; }
    button.open { font: inherit; min-block-size: 44px; padding-block: 0.5em; padding-inline: 1.25em; border: 0; border-radius: 8px;
      background: var(--svc-accent, #0b5cad); color: #fff; cursor: pointer; }
    button.open:focus-visible, button.close:focus-visible { outline: 3px solid var(--svc-accent, #0b5cad); outline-offset: 2px; }
    dialog { inline-size: min(40rem, calc(100vw - 2rem)); max-block-size: calc(100vh - 2rem); padding: 0; border: 0; border-radius: 8px;
      background: #fff; overflow: auto; }
    dialog::backdrop { background: rgb(0 0 0 / 0.5); }
    .bar { display: flex; justify-content: flex-end; position: sticky; inset-block-start: 0; background: #fff; }
    button.close { font: inherit; min-block-size: 44px; min-inline-size: 44px; border: 0; background: transparent; cursor: pointer; }
  `;

  class SvcEmbed extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const path = this.pagePath();
      if (!path) return;
      const root = this.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      style.textContent = STYLE;
      root.append(style);
      const accent = this.getAttribute('accent');
      if (accent && /^#[0-9a-f]{6}$/i.test(accent)) this.style.setProperty('--svc-accent', accent);
      const text = words(this);
      if (this.hasAttribute('popup')) this.renderPopup(root, path, text);
      else root.append(this.frame(path, text));
    }

    disconnectedCallback() {
      for (const frame of this.shadowRoot ? this.shadowRoot.querySelectorAll('iframe') : []) frames.delete(frame);
    }

    frame(path, text) {
      const frame = document.createElement('iframe');
      frame.src = pageUrl(this, path);
      frame.title = text[this.titleKey()];
      frames.add(frame);
      return frame;
    }

    renderPopup(root, path, text) {
      const open = document.createElement('button');
      open.type = 'button';
      open.className = 'open';
      open.setAttribute('part', 'button');
      open.setAttribute('aria-haspopup', 'dialog');
      // the organizer's own words for the button, when the element has any
      const label = document.createElement('slot');
      label.textContent = text.bookNow;
      open.append(label);
      const dialog = document.createElement('dialog');
      dialog.setAttribute('aria-label', text[this.titleKey()]);
      const bar = document.createElement('div');
      bar.className = 'bar';
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'close';
      close.setAttribute('aria-label', text.close);
      close.textContent = '×';
      close.addEventListener('click', () => dialog.close());
      bar.append(close);
      dialog.append(bar);
      open.addEventListener('click', () => {
        if (!dialog.querySelector('iframe')) dialog.append(this.frame(path, text));
        dialog.showModal();
      });
      // Escape or the close button: focus goes back to the button that opened it
      dialog.addEventListener('close', () => open.focus());
      root.append(open, dialog);
    }
  }

  customElements.define(
    'svc-events',
    class extends SvcEmbed {
      pagePath() {
        return '/events';
      }
      titleKey() {
        return 'eventsTitle';
      }
    },
  );
  customElements.define(
    'svc-event',
    class extends SvcEmbed {
      pagePath() {
        const id = this.getAttribute('event') || '';
        return /^[1-9]\d{0,9}$/.test(id) ? `/events/${id}` : null;
      }
      titleKey() {
        return 'eventTitle';
      }
    },
  );
  customElements.define(
    'svc-booking',
    class extends SvcEmbed {
      pagePath() {
        const id = this.getAttribute('type') || '';
        return /^[1-9]\d{0,9}$/.test(id) ? `/book/${id}` : null;
      }
      titleKey() {
        return 'bookingTitle';
      }
    },
  );
})();
