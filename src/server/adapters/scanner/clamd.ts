import { connect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { ScanResult, VirusScanner } from './types.ts';

export interface ClamdOptions {
  host: string;
  port: number;
  /** Whole-scan limit; clamd answers a 10 MB file in well under a second. */
  timeoutMs?: number;
}

/** clamd refuses chunks above its StreamMaxLength anyway; 64 KiB keeps memory flat. */
const maxChunk = 64 * 1024;

/**
 * ClamAV's daemon over TCP with the INSTREAM command: `zINSTREAM\0`, then
 * chunks each prefixed by its length (4 bytes, big-endian), then a zero
 * length. clamd answers `stream: OK`, `stream: <signature> FOUND` or
 * `<reason> ERROR`, NUL-terminated (the `z` prefix).
 * https://docs.clamav.net/manual/Usage/Scanning.html#clamd
 */
export function createClamdScanner(options: ClamdOptions): VirusScanner {
  const timeoutMs = options.timeoutMs ?? 30_000;

  return {
    name: 'clamd',
    async ping() {
      const reply = await exchange(options, timeoutMs, async (socket) => {
        await write(socket, Buffer.from('zPING\0'));
      });
      if (reply !== 'PONG') throw new Error(`clamd answered PING with "${reply}"`);
    },
    async scan(input: Readable | Buffer): Promise<ScanResult> {
      const reply = await exchange(options, timeoutMs, async (socket) => {
        await write(socket, Buffer.from('zINSTREAM\0'));
        const chunks: AsyncIterable<Buffer> | Buffer[] = Buffer.isBuffer(input) ? [input] : (input as AsyncIterable<Buffer>);
        for await (const chunk of chunks) {
          for (let offset = 0; offset < chunk.length; offset += maxChunk) {
            const part = chunk.subarray(offset, offset + maxChunk);
            const length = Buffer.alloc(4);
            length.writeUInt32BE(part.length);
            await write(socket, Buffer.concat([length, part]));
            if (socket.destroyed || socket.readableEnded) return; // clamd gave up early (size limit)
          }
        }
        await write(socket, Buffer.alloc(4));
      });
      return parseScanReply(reply);
    },
  };
}

export function parseScanReply(reply: string): ScanResult {
  if (reply === 'stream: OK') return { clean: true };
  const found = /^stream: (.+) FOUND$/.exec(reply);
  if (found) return { clean: false, signature: found[1]! };
  throw new Error(`clamd could not scan the file: ${reply || 'no answer'}`);
}

/** Opens a connection, runs `send`, and resolves with clamd's NUL-terminated answer. */
function exchange(options: ClamdOptions, timeoutMs: number, send: (socket: Socket) => Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: options.host, port: options.port });
    let reply = '';
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(reply.replace(/\0[\s\S]*$/, '').trim());
    };
    const timer = setTimeout(() => finish(new Error(`clamd did not answer within ${timeoutMs} ms`)), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => {
      reply += data;
      if (reply.includes('\0')) finish(null);
    });
    socket.on('end', () => finish(null));
    socket.on('error', (error) => finish(error));
    socket.once('connect', () => {
      send(socket).catch((error: Error) => finish(error));
    });
  });
}

function write(socket: Socket, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve();
    socket.write(data, (error) => (error ? reject(error) : resolve()));
  });
}
