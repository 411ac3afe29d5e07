import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';

/** Filled in by the custom-fields work (issue 14). */
export function registerCustomFields(_hooks: Hooks, _ctx: PluginContext): void {}
