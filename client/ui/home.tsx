import type { JSX } from 'solid-js';
import { Page } from './page';
import { A } from '../router';

/** The start page is a visitor's: where to sign up or book. Staff go to /door and /admin directly. */
export default function HomePage(): JSX.Element {
  return (
    <Page title="svc" heading="Events and appointments">
      <p class="lead">Sign up for an upcoming event or book an appointment.</p>
      <ul class="cards">
        <li>
          <A href="/events" class="card">
            <span class="card-title">Events</span>
            <span class="card-text">See upcoming events, what they cost and how many places are left.</span>
          </A>
        </li>
      </ul>
    </Page>
  );
}
