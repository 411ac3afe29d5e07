import { lazy } from 'solid-js';
import type { RouteDefinition } from '../router';

/** Door mode (docs/api.md#overview, §6): pairing, event choice, scanner. */
export const doorRoutes: RouteDefinition[] = [{ path: '/door', component: lazy(() => import('../door/pages/door-page')) }];
