import { lazy } from 'solid-js';
import type { RouteDefinition } from '../router';

/** Visitor pages (docs/api.md#overview): events, sign-up, booking, checkout, cancel and manage links. */
export const visitorRoutes: RouteDefinition[] = [
  { path: '/', component: lazy(() => import('../ui/home')) },
  { path: '/events', component: lazy(() => import('../visitor/pages/events')) },
  { path: '/events/submit', component: lazy(() => import('../visitor/pages/submit')) },
  { path: '/events/:id', component: lazy(() => import('../visitor/pages/event')) },
  { path: '/book/:id', component: lazy(() => import('../visitor/pages/book')) },
  { path: '/cancel/:token', component: lazy(() => import('../visitor/pages/cancel')) },
  { path: '/manage/:token', component: lazy(() => import('../visitor/pages/manage')) },
  { path: '/pay/:id', component: lazy(() => import('../visitor/pages/pay')) },
];

// A sign-up or booking left waiting (offline, closed tab) is sent when svc starts on any page.
if (typeof localStorage !== 'undefined' && localStorage.getItem('svc-visitor-pending')) {
  void import('../visitor/runner').then((m) => m.startOutboxRunner());
}
