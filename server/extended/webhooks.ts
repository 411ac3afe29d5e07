import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';

/** Filled in by the webhooks work (issue 14). */
export function registerWebhooks(_hooks: Hooks, _ctx: PluginContext): void {}
