import type { JSX } from 'solid-js';
import { Page } from './page';
import { A } from '../router';

export default function NotFoundPage(): JSX.Element {
  return (
    <Page title="Page not found">
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <A href="/">Go to the start page</A>
      </p>
    </Page>
  );
}
