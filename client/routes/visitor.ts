import { lazy } from 'solid-js';
import type { RouteDefinition } from '../router';

/** Visitor pages (SPEC §1): events, sign-up, booking, cancel and manage links. */
export const visitorRoutes: RouteDefinition[] = [{ path: '/', component: lazy(() => import('../pages/home')) }];
