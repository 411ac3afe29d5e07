/** A local Slack-style incoming webhook for team-chat tests: records each posted body, answers `status`. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatReceiver {
  url: string;
  /** Every `{text}` received, oldest first (failed answers included). */
  readonly messages: string[];
  /** The status the next posts answer (default 200). */
  status: number;
  close(): Promise<void>;
}

export async function startChatReceiver(path = '/hooks/chat'): Promise<ChatReceiver> {
  const messages: string[] = [];
  const receiver = { status: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { text?: string };
      messages.push(body.text ?? '');
      res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end(receiver.status === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    messages,
    get status() {
      return receiver.status;
    },
    set status(value: number) {
      receiver.status = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
