import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../src/server/router.ts';
import { zonedInstant, parseIsoDate } from '../../src/shared/time.ts';

/** The typed tRPC client, as the wizard uses it, against a test server. */
export function bookingClient(url: string) {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/trpc`, transformer: superjson })] });
}
export type BookingClient = ReturnType<typeof bookingClient>;

/** The rejection of a tRPC call as `{ code, message, httpStatus }`. */
export async function trpcError(promise: Promise<unknown>): Promise<{ code: string; message: string; httpStatus: number }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCClientError) {
      const data = error.data as { code: string; httpStatus: number };
      return { code: data.code, message: error.message, httpStatus: data.httpStatus };
    }
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A wall-clock time in Chicago as an instant: chicago('2027-03-14', '8:30'). */
export function chicago(date: string, time: string): Date {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return zonedInstant(parseIsoDate(date), h * 60 + m, 'America/Chicago');
}

/** PUTs raw bytes to an upload URL the way the browser's XHR does. */
export async function putBytes(url: string, uploadUrl: string, bytes: Uint8Array, contentType = 'application/octet-stream') {
  const res = await fetch(`${url}${uploadUrl}`, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'Content-Type': contentType } });
  return { status: res.status, body: (await res.json()) as { error?: string; document?: { id: string; name: string; sizeBytes: number; contentType: string } } };
}
