/**
 * Team chat's admin operations (docs/api.md#chat): a test message to an address, queued as a job
 * (no outbound call inside a request), and where that test stands. Free edition: 404.
 */
import { ZChatTestDto, ZChatTestInput } from '../../../shared/chat';
import { defineOperation, ZIdParams } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { chatService } from './chat.service';

const TAGS = ['chat'];

export const chatOperations = {
  test: defineOperation({
    summary: 'Queue a test message to a Slack-compatible incoming webhook (the address typed in, saved or not)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZChatTestInput,
    output: ZChatTestDto,
    rest: {
      method: 'post',
      path: '/chat/test',
      tags: TAGS,
      status: 202,
      describe: 'Accepted: the test message is queued; GET /chat/test/{id} tells whether it went out',
      errors: { 400: 'svc_invalid_param: not an http(s) address, or a private one', 404: 'The free edition' },
    },
    handler: ({ input, ctx }) => chatService(ctx).queueTest(input.url),
  }),
  testStatus: defineOperation({
    summary: 'Where a queued test message stands: queued, sent (the chat answered 2xx) or failed (with why)',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams,
    output: ZChatTestDto,
    rest: { method: 'get', path: '/chat/test/:id', tags: TAGS, errors: { 404: 'No such test message, or the free edition' } },
    handler: ({ input, ctx }) => chatService(ctx).testStatus(input.id),
  }),
};
