import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';

/** Filled in by the chat work (issue 14). */
export function registerChat(_hooks: Hooks, _ctx: PluginContext): void {}
