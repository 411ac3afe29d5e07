import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';

/** Filled in by the resources work (issue 14). */
export function registerResources(_hooks: Hooks, _ctx: PluginContext): void {}
