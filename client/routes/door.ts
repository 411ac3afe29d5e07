import type { RouteDefinition } from '../router';

/** Door mode (SPEC §1, §6): pairing, event choice, scanner. */
export const doorRoutes: RouteDefinition[] = [];
