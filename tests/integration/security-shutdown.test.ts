import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server.ts';
import { bookingClient } from './booking-helpers.ts';

/**
 * SIGTERM on the built server (`npm run build` first): it stops accepting
 * connections at once, yet an upload already streaming finishes and is
 * stored, and then the process exits cleanly.
 */
describe('graceful shutdown', () => {
  it('finishes the request in flight, refuses new connections, then exits 0', async () => {
    if (!existsSync('dist/server/entry-server.js')) throw new Error('run `npm run build` first');
    const server = await startServer({ LOG_LEVEL: 'info' });
    try {
      const client = bookingClient(server.url);
      const { bookingId } = await client.booking.start.mutate({ timeZone: 'America/Chicago' });
      const pdf = readFileSync('tests/fixtures/sample.pdf');
      const { uploadUrl } = await client.documents.createUpload.mutate({ bookingId, fileName: 'deed.pdf', sizeBytes: pdf.length, contentType: 'application/pdf' });

      let refusedWhileDraining: boolean | undefined;
      // Half the bytes now, the rest after the signal.
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${server.url}${uploadUrl}`, { method: 'PUT', headers: { 'content-type': 'application/pdf', 'content-length': pdf.length } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.write(pdf.subarray(0, pdf.length >> 1));
        setTimeout(() => {
          server.process.kill('SIGTERM');
          setTimeout(() => {
            // Draining: a new connection is refused while the upload is still open
            // (agent: false — fetch would reuse an open keep-alive connection, which is still served).
            new Promise<boolean>((resolve) => {
              const probe = request(`${server.url}/healthz`, { agent: false }, (res) => {
                res.resume();
                resolve(false);
              });
              probe.on('error', () => resolve(true));
              probe.end();
            })
              .then((refused) => (refusedWhileDraining = refused))
              .finally(() => req.end(pdf.subarray(pdf.length >> 1)));
          }, 300);
        }, 200);
      });
      const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));

      const res = await answer;
      expect(res.status).toBe(201);
      expect(JSON.parse(res.body).document.name).toBe('deed.pdf');
      expect(refusedWhileDraining).toBe(true);
      expect(await exited).toBe(0);
      const log = server.output();
      expect(log).toContain('"msg":"shutting down"');
      expect(log).toContain('"msg":"shutdown complete"');
      // The upload's request line was written after the signal: it really was in flight.
      expect(log.indexOf('"msg":"shutting down"')).toBeLessThan(log.indexOf('"statusCode":201'));
    } finally {
      await server.stop();
    }
  });
});
