import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/router.ts';

/**
 * A few hundred bytes for calling tRPC procedures from pages that must stay
 * light (the console's sign-in pages): no tRPC client, React Query or
 * superjson on their first load. Speaks the server's wire format (superjson's
 * envelope `{ json }`) for procedures whose input and output are plain JSON —
 * strings, numbers, booleans, null, arrays, objects; no Dates, Maps or
 * undefined inside. Anything richer uses `trpc` / `api` from ./trpc.ts.
 *
 *   const result = await rpc.mutation<Outputs['staff']['login']>('staff.login', input satisfies Inputs['staff']['login']);
 */
export type Inputs = inferRouterInputs<AppRouter>;
export type Outputs = inferRouterOutputs<AppRouter>;

/** The server's message (a TRPCError's, or a validation message); the same text the full client shows. */
export class RpcError extends Error {
  readonly code: string;
  /** The server's per-field messages for input it refused (tRPC errorFormatter's `fieldErrors`). */
  readonly fieldErrors: Record<string, string[] | undefined>;
  constructor(message: string, code: string, fieldErrors: Record<string, string[] | undefined> = {}) {
    super(message);
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

interface Envelope {
  result?: { data?: { json?: unknown; meta?: unknown } };
  error?: { json?: { message?: string; data?: { code?: string; fieldErrors?: Record<string, string[] | undefined> } } };
}

async function call(method: 'GET' | 'POST', path: string, input: unknown): Promise<unknown> {
  const encoded = input === undefined ? undefined : JSON.stringify({ json: input });
  const url = method === 'GET' && encoded ? `/trpc/${path}?input=${encodeURIComponent(encoded)}` : `/trpc/${path}`;
  const init: RequestInit =
    method === 'POST'
      ? { method, headers: { 'content-type': 'application/json' }, body: encoded ?? '{"json":null,"meta":{"values":["undefined"]}}' }
      : { method };
  const res = await fetch(url, init);
  const envelope = (await res.json().catch(() => ({}))) as Envelope;
  if (envelope.error || !envelope.result) {
    const data = envelope.error?.json?.data;
    throw new RpcError(envelope.error?.json?.message ?? 'An unexpected error occurred', data?.code ?? String(res.status), data?.fieldErrors ?? {});
  }
  return envelope.result.data?.json ?? null;
}

export const rpc = {
  query: <Output>(path: string, input?: unknown) => call('GET', path, input) as Promise<Output>,
  mutation: <Output>(path: string, input?: unknown) => call('POST', path, input) as Promise<Output>,
};
