import type { AppContext } from '../../context';
import type { JobRunner } from '../../jobs/queue';
import { CHAT_FLUSH_JOB, CHAT_SEND_JOB, CHAT_TEST_JOB, chatService } from './chat.service';

/** Team chat's jobs (docs/api.md#chat): fold pending check-ins into a message, send it, send a test. */
export function registerChatJobs(runner: JobRunner, ctx: AppContext): void {
  runner.register(CHAT_FLUSH_JOB, async (payload) => {
    await chatService(ctx).flush(Number(payload.eventId), String(payload.dueUtc ?? ''));
  });
  // only these two talk to the chat: they run in the outbound lane, beside mail and payments (docs/decisions/023-outbound-lane.md)
  runner.register(
    CHAT_SEND_JOB,
    async (payload) => {
      await chatService(ctx).send(Number(payload.eventId), String(payload.url), String(payload.text));
    },
    { lane: 'outbound' },
  );
  runner.register(
    CHAT_TEST_JOB,
    async (payload) => {
      await chatService(ctx).sendTest(String(payload.url));
    },
    { lane: 'outbound' },
  );
}
