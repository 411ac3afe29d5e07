import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';

/** Filled in by the mailing-bridge work (issue 14). */
export function registerMailingBridge(_hooks: Hooks, _ctx: PluginContext): void {}
