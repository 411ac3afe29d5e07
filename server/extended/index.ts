/**
 * The extended edition (docs/api.md#plugins): a plugin like any other, loaded before SVC_PLUGINS when
 * SVC_EDITION=extended. It attaches only through hooks, at the contract's priorities.
 */
import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';
import { registerCheckinSerialization } from './checkin-serialization';
import { registerPaymentPath } from './payments';

export default function extendedEdition(hooks: Hooks, ctx: PluginContext): void {
  registerCheckinSerialization(hooks, ctx);
  registerPaymentPath(hooks, ctx);
}
