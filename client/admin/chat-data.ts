/** Team chat's calls of the admin app (docs/api.md#chat), typed from the server's operations. */
import type { ChatTestDto } from '../../shared/chat';
import { call, rpc } from '../ui/trpc';

export type { ChatTestDto };

/** Queues a test message to `url` (the server answers at once; the job sends it). */
export const queueChatTest = (url: string): Promise<ChatTestDto> => call(rpc().chat.test.mutate({ url }));

/** Where a queued test message stands. */
export const getChatTest = (id: number): Promise<ChatTestDto> => call(rpc().chat.testStatus.query({ id }));
