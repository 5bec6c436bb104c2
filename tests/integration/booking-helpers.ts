import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../src/server/router.ts';

/** The typed tRPC client, as the wizard uses it, against a test server. */
export function bookingClient(url: string) {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/trpc`, transformer: superjson })] });
}
export type BookingClient = ReturnType<typeof bookingClient>;

/** PUTs raw bytes to an upload URL the way the browser's XHR does. */
export async function putBytes(url: string, uploadUrl: string, bytes: Uint8Array, contentType = 'application/octet-stream') {
  const res = await fetch(`${url}${uploadUrl}`, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'Content-Type': contentType } });
  return { status: res.status, body: (await res.json()) as { error?: string; document?: { id: string; name: string; sizeBytes: number; contentType: string } } };
}
