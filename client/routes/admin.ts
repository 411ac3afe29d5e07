import { lazy } from 'solid-js';
import type { RouteDefinition } from '../router';

/** Sign-in and administration (docs/api.md#overview, §5). Static segments come before `:id`. */
export const adminRoutes: RouteDefinition[] = [
  { path: '/login', component: lazy(() => import('../admin/pages/login')) },
  { path: '/invite/:token', component: lazy(() => import('../admin/pages/invite')) },
  { path: '/admin', component: lazy(() => import('../admin/pages/index')) },
  { path: '/admin/events', component: lazy(() => import('../admin/pages/events')) },
  { path: '/admin/events/new', component: lazy(() => import('../admin/pages/event-form')) },
  { path: '/admin/events/:id', component: lazy(() => import('../admin/pages/event-dashboard')) },
  { path: '/admin/events/:id/edit', component: lazy(() => import('../admin/pages/event-form')) },
  { path: '/admin/events/:id/attendees', component: lazy(() => import('../admin/pages/attendees')) },
  { path: '/admin/booking-types', component: lazy(() => import('../admin/pages/booking-types')) },
  { path: '/admin/booking-types/:id', component: lazy(() => import('../admin/pages/booking-type-form')) },
  { path: '/admin/bookings', component: lazy(() => import('../admin/pages/bookings')) },
  { path: '/admin/hosts', component: lazy(() => import('../admin/pages/hosts')) },
  { path: '/admin/hosts/:userId/bookings', component: lazy(() => import('../admin/pages/host-bookings')) },
  { path: '/admin/hosts/:userId/profile', component: lazy(() => import('../admin/pages/host-profile')) },
  { path: '/admin/profile', component: lazy(() => import('../admin/pages/host-profile')) },
  { path: '/admin/orders', component: lazy(() => import('../admin/pages/orders')) },
  { path: '/admin/orders/:id', component: lazy(() => import('../admin/pages/order')) },
  { path: '/admin/submissions', component: lazy(() => import('../admin/pages/submissions')) },
  { path: '/admin/resources', component: lazy(() => import('../admin/pages/resources')) },
  { path: '/admin/webhooks', component: lazy(() => import('../admin/pages/webhooks')) },
  { path: '/admin/webhooks/:id', component: lazy(() => import('../admin/pages/webhook')) },
  { path: '/admin/devices', component: lazy(() => import('../admin/pages/devices')) },
  { path: '/admin/hosts/:userId/hours', component: lazy(() => import('../admin/pages/host-hours')) },
  { path: '/admin/hosts/:userId/calendars', component: lazy(() => import('../admin/pages/host-calendars')) },
  { path: '/admin/settings', component: lazy(() => import('../admin/pages/settings')) },
  { path: '/admin/outbox', component: lazy(() => import('../admin/pages/outbox')) },
];
