import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';

/** Filled in by the timeline work (issue 14). */
export function registerTimeline(_hooks: Hooks, _ctx: PluginContext): void {}
