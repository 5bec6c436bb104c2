import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';

export interface FakeClamd {
  host: string;
  port: number;
  /** Every INSTREAM received, in order, as the bytes clamd reassembled. */
  scanned: Buffer[];
  close(): Promise<void>;
}

interface Signature {
  name: string;
  bytes: Buffer;
  offset: number | '*';
}

/** Reads a ClamAV `.ndb` file (Name:TargetType:Offset:HexSignature); plain hex bodies only. */
export function loadSignatures(file = path.resolve('tests/fixtures/clamav/test-signatures.ndb')): Signature[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [name, , offset, hex] = line.trim().split(':');
      return { name: name!, bytes: Buffer.from(hex!, 'hex'), offset: offset === '*' ? '*' : Number(offset) };
    });
}

/** The EICAR test file, built from the committed signature rather than stored as a file. */
export function eicarBytes(): Buffer {
  return loadSignatures().find((s) => s.name === 'Eicar-Test-Signature')!.bytes;
}

/**
 * A tiny clamd on loopback that speaks the real wire protocol (PING and
 * INSTREAM, `z`/`n` command prefixes) and matches the committed signatures.
 */
export async function startFakeClamd(options: { signatures?: Signature[]; streamMaxLength?: number } = {}): Promise<FakeClamd> {
  const signatures = options.signatures ?? loadSignatures();
  const streamMaxLength = options.streamMaxLength ?? 25 * 1024 * 1024;
  const scanned: Buffer[] = [];
  const sockets = new Set<Socket>();

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = Buffer.alloc(0);
    let command: string | null = null;
    let terminator = '\0';
    const chunks: Buffer[] = [];
    let received = 0;
    const reply = (text: string) => socket.end(`${text}${terminator}`);

    socket.on('data', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      if (command === null) {
        const prefix = String.fromCharCode(buffer[0] ?? 0);
        const end = prefix === 'z' ? buffer.indexOf(0) : buffer.indexOf(10);
        if (end < 0) return;
        terminator = prefix === 'z' ? '\0' : '\n';
        command = buffer.subarray(1, end).toString('latin1');
        buffer = buffer.subarray(end + 1);
        if (command === 'PING') return reply('PONG');
        if (command !== 'INSTREAM') return reply('UNKNOWN COMMAND');
      }
      while (buffer.length >= 4) {
        const length = buffer.readUInt32BE(0);
        if (length === 0) {
          const file = Buffer.concat(chunks);
          scanned.push(file);
          const hit = signatures.find((s) => (s.offset === '*' ? file.includes(s.bytes) : file.subarray(s.offset).indexOf(s.bytes) === 0));
          return reply(hit ? `stream: ${hit.name} FOUND` : 'stream: OK');
        }
        if (buffer.length < 4 + length) return;
        chunks.push(buffer.subarray(4, 4 + length));
        received += length;
        buffer = buffer.subarray(4 + length);
        if (received > streamMaxLength) return reply('INSTREAM size limit exceeded. ERROR');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    host: '127.0.0.1',
    port,
    scanned,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
