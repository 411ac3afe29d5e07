/**
 * The first-run checklist (docs/decisions/048-first-run.md): each step is done when its data
 * exists, never ticked by hand, so the list tracks itself.
 */
import { z } from 'zod';

/** In the order the checklist shows them. */
export const SETUP_STEPS = ['organization', 'regional', 'event', 'bookingType', 'staff', 'door'] as const;
export type SetupStepKey = (typeof SETUP_STEPS)[number];

export const ZSetupStep = z.object({
  key: z.enum(SETUP_STEPS),
  done: z.boolean(),
});

export const ZSetup = z.object({
  steps: z.array(ZSetupStep),
  /** Every step done. */
  complete: z.boolean(),
});
export type Setup = z.infer<typeof ZSetup>;
