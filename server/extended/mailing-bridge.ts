/**
 * The mailing bridge (docs/api.md#mailing-bridge): at priority 20 of svc_pro_attendee_checked_in
 * it fires svc_mp_checked_in with the same three arguments, for mailing-list plugins.
 */
import { PRIORITY_MAILING_BRIDGE, type Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';

export function registerMailingBridge(hooks: Hooks, _ctx: PluginContext): void {
  hooks.addAction(
    'svc_pro_attendee_checked_in',
    (checkinId, attendeeId, eventId) => hooks.doAction('svc_mp_checked_in', checkinId, attendeeId, eventId),
    PRIORITY_MAILING_BRIDGE,
    3,
  );
}
