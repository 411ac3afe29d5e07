import type { JSX } from 'solid-js';
import { Page } from './page';
import { A } from '../router';

const SECTIONS = [
  { href: '/events', title: 'Events', text: 'See upcoming events and sign up.' },
  { href: '/door', title: 'Door', text: 'Check people in by scanning their tickets, even without a network.' },
  { href: '/admin', title: 'Admin', text: 'Manage events, attendees, bookings and emails.' },
];

export default function HomePage(): JSX.Element {
  return (
    <Page title="svc" heading="Check-in and bookings">
      <p class="lead">
        svc lets visitors sign up for events and book appointments, and lets door staff check people in — online or offline. Scans made without a network are
        kept on the device and sent when it is back.
      </p>
      <ul class="cards">
        {SECTIONS.map((section) => (
          <li>
            <A href={section.href} class="card">
              <span class="card-title">{section.title}</span>
              <span class="card-text">{section.text}</span>
            </A>
          </li>
        ))}
      </ul>
    </Page>
  );
}
