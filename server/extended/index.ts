/**
 * The extended edition (docs/api.md#plugins): a plugin like any other, loaded before SVC_PLUGINS when
 * SVC_EDITION=extended. It attaches only through hooks, at the contract's priorities.
 */
import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';
import { registerCheckinSerialization } from './checkin-serialization';
import { registerPaymentPath } from './payments';
import { registerTimeline } from './timeline';
import { registerWebhooks } from './webhooks';
import { registerMailingBridge } from './mailing-bridge';
import { registerChat } from './chat';
import { registerResources } from './resources';
import { registerCustomFields } from './custom-fields';

export default function extendedEdition(hooks: Hooks, ctx: PluginContext): void {
  registerCheckinSerialization(hooks, ctx);
  registerPaymentPath(hooks, ctx);
  // Equal priorities run in registration order: the timeline (10) and then, at 20, the mailing
  // bridge before the webhook dispatcher; the team chat at 30.
  registerTimeline(hooks, ctx);
  registerMailingBridge(hooks, ctx);
  registerWebhooks(hooks, ctx);
  registerChat(hooks, ctx);
  registerResources(hooks, ctx);
  registerCustomFields(hooks, ctx);
}
