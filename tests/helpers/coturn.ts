import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Coturn {
  url: string;
  secret: string;
  output: () => string;
  stop(): Promise<void>;
}

async function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.on('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

/**
 * Debian's coturn on loopback with a shared secret (`use-auth-secret`, the
 * scheme the server's credentials follow). Loopback peers are allowed: both
 * browsers of a test are on this machine.
 */
export async function startCoturn(): Promise<Coturn> {
  const port = await freeUdpPort();
  const secret = randomBytes(16).toString('hex');
  const min = 40_000 + Math.floor(Math.random() * 20_000);
  let output = '';
  const child: ChildProcess = spawn(
    process.env.TURNSERVER_PATH ?? '/usr/bin/turnserver',
    [
      '-n',
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${port}`,
      `--min-port=${min}`,
      `--max-port=${min + 200}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      '--realm=notary.test',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--allow-loopback-peers',
      '--fingerprint',
      '--log-file=stdout',
      '--simple-log',
      `--pidfile=${path.join(tmpdir(), `turnserver-${port}.pid`)}`,
      `--userdb=${path.join(tmpdir(), `turnserver-${port}.db`)}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 10_000;
  while (!/listener opened on|Total (UDP|General) servers/i.test(output)) {
    if (child.exitCode !== null) throw new Error(`turnserver exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`turnserver did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `turn:127.0.0.1:${port}?transport=udp`,
    secret,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
