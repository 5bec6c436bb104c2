import type { AnyTRPCRouter, inferRouterContext } from '@trpc/server';
import {
  callProcedure,
  getErrorShape,
  getHTTPStatusCode,
  getTRPCErrorFromUnknown,
  isObject,
  transformTRPCResponse,
  type TRPCError,
} from '@trpc/server/unstable-core-do-not-import';
import type { Request, RequestHandler, Response } from 'express';

export type FastLaneProcedures = Record<string, 'query' | 'mutation'>;

export interface TrpcFastLaneOptions<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  /** The procedures answered here (the busiest public ones), by path, with their type. */
  procedures: FastLaneProcedures;
  /** The same context the tRPC adapter builds. */
  createContext: (opts: { req: Request; res: Response }) => inferRouterContext<TRouter>;
  /** The same error hook the tRPC adapter calls. */
  onError?: (opts: { error: TRPCError; path: string }) => void;
  /** The adapter's `maxBodySize`: a longer body is left to it. */
  maxBodySize: number;
}

interface Call {
  path: string;
  type: 'query' | 'mutation';
  batch: boolean;
}

/**
 * The hot public procedures (docs/decisions/053-trpc-fast-lane.md) answered
 * without tRPC's fetch adapter, which turns every Node request into a WHATWG
 * Request (Headers, URL, AbortController — aborted with a DOMException at the
 * end of every request) and writes the answer back through a web stream:
 * about a third of the server's CPU on `slots.list`.
 *
 * Only the adapter is replaced. The procedure itself still runs through
 * tRPC (`callProcedure`: its middlewares — rate limits, role checks, the
 * DomainError mapping — its zod input and the transformer), and the answer
 * is built by tRPC's own functions (`transformTRPCResponse`, `getErrorShape`,
 * `getHTTPStatusCode`): byte for byte the adapter's body and status, for a
 * single call or a batch of one (what the client's batch link sends).
 * Everything Express does before `/trpc` (request id, log, security headers,
 * no-store, CSRF, body limit, compression) is unchanged.
 *
 * Anything else goes on to the adapter untouched: another path, a batch of
 * several calls, another method, a streaming (`trpc-accept`) request, input
 * that is not JSON or not the batch's object, a body without a length or over
 * the limit. A body this lane has read is handed on as `req.body` (the
 * adapter reads it from there).
 */
export function trpcFastLane<TRouter extends AnyTRPCRouter>(options: TrpcFastLaneOptions<TRouter>): RequestHandler {
  const procedures = new Map(Object.entries(options.procedures));
  const config = options.router._def._config;
  const deserialize = (value: unknown): unknown => config.transformer.input.deserialize(value);

  function match(req: Request): (Call & { search: string }) | null {
    const url = req.url;
    const q = url.indexOf('?');
    const path = url.slice(1, q === -1 ? undefined : q);
    const type = procedures.get(path);
    if (!type || req.headers['trpc-accept'] !== undefined) return null;
    if (req.method !== (type === 'query' ? 'GET' : 'POST')) return null;
    const search = q === -1 ? '' : url.slice(q + 1);
    // tRPC's own test: batch=1 is a batch, anything else a single call.
    const batch = new URLSearchParams(search).get('batch') === '1';
    return { path, type, batch, search };
  }

  /** The raw input (tRPC's wire form), or null when the adapter should decide. As the adapter: no query input is no input. */
  function rawInput(text: string | null, batch: boolean): { raw: unknown } | null {
    if (text === null || text === '') return { raw: undefined };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return null;
    }
    if (!batch) return { raw: parsed };
    if (!isObject(parsed)) return null;
    return { raw: (parsed as Record<string, unknown>)[0] };
  }

  async function answer(req: Request, res: Response, call: Call, raw: unknown): Promise<void> {
    const ctx = options.createContext({ req, res });
    let input: unknown;
    let item: object;
    /** What the procedure answered (undefined on an error). */
    let answered: unknown;
    try {
      const data = await callProcedure({
        router: options.router,
        path: call.path,
        type: call.type,
        ctx,
        batchIndex: 0,
        signal: undefined,
        getRawInput: async () => (input = raw === undefined ? undefined : deserialize(raw)),
      });
      answered = data;
      item = { result: { data } };
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      options.onError?.({ error, path: call.path });
      item = { error: getErrorShape({ config, ctx, error, input, path: call.path, type: call.type }) };
    }
    const untransformed = call.batch ? [item] : item;
    // As the adapter: its status unless a handler set one already.
    if (res.statusCode === 200) res.statusCode = getHTTPStatusCode(untransformed as never);
    res.setHeader('content-type', 'application/json');
    res.setHeader('vary', 'trpc-accept, accept');
    const body = bodyOf(untransformed, call.batch, answered);
    // One write with its length (compression drops the length when it compresses).
    res.setHeader('content-length', body.length);
    res.end(body);
  }

  /**
   * The answer's bytes. A frozen result (`deepFreeze`: it never changes, e.g.
   * `slots.list`'s shared answer, decision 116) is written once and its bytes
   * served again while the procedure keeps answering it.
   */
  const frozenBodies = new WeakMap<object, { single?: Buffer; batch?: Buffer }>();
  function bodyOf(untransformed: object, batch: boolean, data: unknown): Buffer {
    const write = () => Buffer.from(JSON.stringify(transformTRPCResponse(config, untransformed as never)));
    if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return write();
    let bodies = frozenBodies.get(data);
    if (!bodies) frozenBodies.set(data, (bodies = {}));
    const kind = batch ? 'batch' : 'single';
    return (bodies[kind] ??= write());
  }

  return (req, res, next) => {
    const call = match(req);
    if (!call) return next();
    if (call.type === 'query') {
      const input = rawInput(new URLSearchParams(call.search).get('input'), call.batch);
      if (!input) return next();
      answer(req, res, call, input.raw).catch(next);
      return;
    }
    // Mutations: a JSON body of a declared length within the limit (bodyLimit has checked the length).
    const length = Number(req.headers['content-length']);
    if (!req.is('application/json') || !Number.isSafeInteger(length) || length > options.maxBodySize || req.headers['transfer-encoding'] !== undefined) return next();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', next);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      // An empty body is no JSON to the adapter (an error), unlike an absent query input.
      const input = text === '' ? null : rawInput(text, call.batch);
      if (!input) {
        (req as { body?: unknown }).body = text;
        return next();
      }
      answer(req, res, call, input.raw).catch(next);
    });
  };
}
