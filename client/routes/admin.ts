import { lazy } from 'solid-js';
import type { RouteDefinition } from '../router';

/** Sign-in and administration (SPEC §1, §5). Static segments come before `:id`. */
export const adminRoutes: RouteDefinition[] = [
  { path: '/login', component: lazy(() => import('../pages/login')) },
  { path: '/invite/:token', component: lazy(() => import('../pages/admin/invite')) },
  { path: '/admin', component: lazy(() => import('../pages/admin/index')) },
  { path: '/admin/events', component: lazy(() => import('../pages/admin/events')) },
  { path: '/admin/events/new', component: lazy(() => import('../pages/admin/event-form')) },
  { path: '/admin/events/:id', component: lazy(() => import('../pages/admin/event-dashboard')) },
  { path: '/admin/events/:id/edit', component: lazy(() => import('../pages/admin/event-form')) },
  { path: '/admin/events/:id/attendees', component: lazy(() => import('../pages/admin/attendees')) },
  { path: '/admin/booking-types', component: lazy(() => import('../pages/admin/booking-types')) },
  { path: '/admin/booking-types/:id', component: lazy(() => import('../pages/admin/booking-type-form')) },
  { path: '/admin/bookings', component: lazy(() => import('../pages/admin/bookings')) },
  { path: '/admin/devices', component: lazy(() => import('../pages/admin/devices')) },
  { path: '/admin/settings', component: lazy(() => import('../pages/admin/settings')) },
];
