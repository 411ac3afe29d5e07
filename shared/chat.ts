/** Team chat schemas shared by the server (REST + tRPC) and the PWA (docs/api.md#chat). */
import { z } from 'zod';

/** `POST /chat/test`: where to send the test message (the address typed in, saved or not). */
export const ZChatTestInput = z.object({ url: z.url({ protocol: /^https?$/ }).max(2000) });
export type ChatTestInput = z.infer<typeof ZChatTestInput>;

/** queued: not sent yet (or waiting to retry); sent: the chat answered 2xx; failed: it gave up. */
export const CHAT_TEST_STATES = ['queued', 'sent', 'failed'] as const;
export type ChatTestState = (typeof CHAT_TEST_STATES)[number];

/** A queued test message and where it stands; `error` is the last failure (an HTTP status or a connection error). */
export const ZChatTestDto = z.object({
  id: z.number().int(),
  state: z.enum(CHAT_TEST_STATES),
  error: z.string().nullable(),
});
export type ChatTestDto = z.infer<typeof ZChatTestDto>;
