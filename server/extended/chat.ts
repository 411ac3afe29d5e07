/**
 * Team chat (docs/api.md#chat): at priority 30 of svc_pro_attendee_checked_in one small upsert and,
 * for the first check-in pending on the event, one queued job. The message goes out from the job,
 * so a slow or failing chat never delays a scan (server/modules/chat/chat.service.ts).
 */
import { PRIORITY_TEAM_CHAT, type Hooks } from '../hooks';
import { chatService } from '../modules/chat/chat.service';
import type { PluginContext } from '../plugins/load';

export function registerChat(hooks: Hooks, ctx: PluginContext): void {
  const chat = chatService({ db: ctx.db, env: ctx.config });
  hooks.addAction('svc_pro_attendee_checked_in', (checkinId, _attendeeId, eventId) => chat.recordCheckin(checkinId, eventId), PRIORITY_TEAM_CHAT, 3);
}
