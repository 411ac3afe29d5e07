import { domainOperations } from '../modules';
import { router } from './procedure';
import { routersOf } from './trpc';

/** The PWA's typed API: one router per domain, one procedure per operation. */
export const appRouter = router(routersOf(domainOperations));

export type AppRouter = typeof appRouter;
