import { lazy } from 'solid-js';
import type { RouteDefinition } from '../router';

/** Sign-in and administration (SPEC §1, §5). */
export const adminRoutes: RouteDefinition[] = [
  { path: '/login', component: lazy(() => import('../pages/login')) },
  { path: '/admin', component: lazy(() => import('../pages/admin')) },
];
