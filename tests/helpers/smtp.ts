import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test process (the `smtp-server` package) on a
 * loopback port, keeping every message it accepts. `stop()` and `start()`
 * on the same port simulate an outage.
 */
export interface TestSmtp {
  port: number;
  url: string;
  messages: ReceivedMail[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface ReceivedMail {
  raw: string;
  envelope: { from: string; to: string[] };
  parsed: ParsedPart;
}

export async function startTestSmtp(options: { port?: number; rejectRecipient?: string } = {}): Promise<TestSmtp> {
  const port = options.port ?? 0;
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  let boundPort = port;
  const start = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address === options.rejectRecipient) {
          const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          messages.push({
            raw,
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            parsed: parseMime(raw),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(boundPort, '127.0.0.1', () => resolve());
    });
    boundPort = (server.server.address() as { port: number }).port;
  };
  await start();
  const smtp: TestSmtp = {
    get port() {
      return boundPort;
    },
    get url() {
      return `smtp://127.0.0.1:${boundPort}`;
    },
    messages,
    start,
    async stop() {
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
  return smtp;
}

// --- A small MIME reader: enough to check what our messages contain. ---------------

export interface ParsedPart {
  headers: Record<string, string>;
  contentType: string;
  body: string;
  parts: ParsedPart[];
}

function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
    enc.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
  );
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

export function parseMime(raw: string): ParsedPart {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const contentType = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (contentType.startsWith('multipart/') && boundary) {
    const pieces = body.split(`--${boundary}`).slice(1, -1);
    return { headers, contentType, body: '', parts: pieces.map((p) => parseMime(p.replace(/^\r?\n/, ''))) };
  }
  return { headers, contentType, body: decodeBody(body, (headers['content-transfer-encoding'] ?? '7bit').toLowerCase()), parts: [] };
}

/** Every leaf part, depth first. */
export function leafParts(part: ParsedPart): ParsedPart[] {
  return part.parts.length ? part.parts.flatMap(leafParts) : [part];
}
