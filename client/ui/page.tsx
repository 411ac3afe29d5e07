import { createEffect, onMount, type JSX } from 'solid-js';
import { takeNavigationFocus } from '../router';
import { organization } from './organization';
import { displayName } from '../../shared/organization';

/** Every page's frame: sets the document title and, after a client-side navigation, focuses the heading. */
export function Page(props: { title: string; heading?: string; children: JSX.Element }): JSX.Element {
  let heading: HTMLHeadingElement | undefined;
  createEffect(() => {
    const name = displayName(organization());
    document.title = props.title === name ? name : `${props.title} · ${name}`;
  });
  onMount(() => {
    if (takeNavigationFocus()) heading?.focus();
  });
  return (
    <div class="page">
      <h1 ref={heading} tabindex="-1">
        {props.heading ?? props.title}
      </h1>
      {props.children}
    </div>
  );
}
