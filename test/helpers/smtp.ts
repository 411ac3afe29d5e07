import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** When its data ended (the wall clock). */
  atMs: number;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpServer(): Promise<{ url: string; received: ReceivedMail[]; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          atMs: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface MimePart {
  /** The part's media type, lower case, without parameters (`text/html`). */
  type: string;
  /** Its Content-Type header as sent, parameters included. */
  contentType: string;
  /** The decoded body (quoted-printable and base64 undone), as UTF-8 text. */
  text: string;
  /** The decoded body's bytes (an image's, say). */
  bytes: Buffer;
  /** Its headers, names in lower case (`content-id`, `content-disposition`). */
  headers: Map<string, string>;
  /** The multipart types around it, outermost first. */
  within: string[];
}

/** The leaf parts of a received message (RFC 2045/2046), each with its decoded body. */
export function mimeParts(raw: string): MimePart[] {
  return leaves(raw, []);
}

function leaves(entity: string, within: string[]): MimePart[] {
  const split = entity.search(/\r?\n\r?\n/);
  const head = split === -1 ? entity : entity.slice(0, split);
  const body = split === -1 ? '' : entity.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const contentType = headers.get('content-type') ?? 'text/plain';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) throw new Error(`mimeParts: ${type} without a boundary`);
    const sections = body.split(`--${boundary}`);
    // the preamble before the first boundary and the epilogue after the closing one are not parts
    return sections.slice(1, -1).flatMap((section) => leaves(section.replace(/^\r?\n/, ''), [...within, type]));
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = decodeQuotedPrintable(body);
  else bytes = Buffer.from(body, 'utf8');
  return [{ type, contentType, text: bytes.toString('utf8'), bytes, headers, within }];
}

function decodeQuotedPrintable(body: string): Buffer {
  const soft = body.replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      out.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(out);
}
