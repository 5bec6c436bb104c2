import { createServer, type Server } from 'node:http';
import { initTRPC, TRPCError } from '@trpc/server';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express, { type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deepFreeze, deserialize, serialize, transformer } from '../../shared/trpc-transformer.ts';
import { trpcFastLane } from './trpc-fast-lane.ts';

/**
 * The fast lane answers exactly as tRPC's own adapter: the same requests are
 * sent to an app with the lane in front of the adapter and to one with the
 * adapter alone, and status, tRPC's headers and body must match.
 */
interface Ctx {
  res: Response;
  calls: string[];
}
const t = initTRPC.context<Ctx>().create({
  transformer,
  errorFormatter: ({ shape, error }) => ({ ...shape, data: { code: shape.data.code, httpStatus: shape.data.httpStatus, fieldErrors: error.cause instanceof z.ZodError ? error.cause.flatten().fieldErrors : undefined } }),
});
const counted = t.procedure.use(async ({ ctx, path, next }) => {
  ctx.calls.push(path);
  return next();
});
/** An answer shared between calls (as `slots.list`'s cache shares its answer): its bytes are written once. */
const sharedAnswer = deepFreeze({ date: '2027-03-13', slots: [{ startsAt: new Date('2027-03-13T14:00:00.000Z'), remaining: 1, available: true }] });
const router = t.router({
  slots: t.router({
    list: counted.input(z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) })).query(({ input }) => input.date === sharedAnswer.date ? sharedAnswer : {
      date: input.date,
      slots: [{ startsAt: new Date(`${input.date}T14:00:00.000Z`), remaining: 2, available: true }],
      note: undefined,
    }),
    other: counted.query(() => 'other'),
  }),
  booking: t.router({
    hold: counted.input(z.object({ bookingId: z.string(), startsAt: z.date() })).mutation(({ ctx, input }) => {
      if (input.bookingId === 'full') {
        ctx.res.setHeader('Retry-After', '7');
        throw new TRPCError({ code: 'CONFLICT', message: 'That time was just taken.' });
      }
      if (input.bookingId === 'boom') throw new Error('database exploded');
      return { startsAt: input.startsAt, holdExpiresAt: new Date(input.startsAt.getTime() + 600_000) };
    }),
  }),
});

/** Paths that went past the lane to the adapter, in the app with the lane. */
const passedOn: string[] = [];

function appWith(lane: boolean, calls: string[], errors: string[]) {
  const app = express();
  const createContext = ({ res }: { req: Request; res: Response }): Ctx => ({ res, calls });
  const onError = ({ error, path }: { error: TRPCError; path?: string }) => void errors.push(`${path}: ${error.code}`);
  if (lane) {
    app.use('/trpc', trpcFastLane({ router, procedures: { 'slots.list': 'query', 'booking.hold': 'mutation' }, createContext, onError, maxBodySize: 1000 }));
    app.use('/trpc', (req, _res, next) => {
      passedOn.push(req.url);
      next();
    });
  }
  app.use('/trpc', createExpressMiddleware({ router, createContext, onError, maxBodySize: 1000, maxBatchSize: 10 }));
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

const query = (input: unknown) => encodeURIComponent(JSON.stringify(input));
const json = { 'content-type': 'application/json' };
const startsAt = new Date('2027-03-12T15:00:00.000Z');

/** Name, whether the lane answers it (or passes it on), path, request. */
const requests: Array<[string, boolean, string, RequestInit?]> = [
  ['single query', true, `/trpc/slots.list?input=${query(serialize({ date: '2027-03-12' }))}`],
  ['batch of one (the client link)', true, `/trpc/slots.list?batch=1&input=${query({ 0: serialize({ date: '2027-03-12' }) })}`],
  ['a shared (frozen) answer', true, `/trpc/slots.list?input=${query(serialize({ date: '2027-03-13' }))}`],
  ['the same shared answer again (its bytes kept)', true, `/trpc/slots.list?input=${query(serialize({ date: '2027-03-13' }))}`],
  ['the shared answer in a batch of one', true, `/trpc/slots.list?batch=1&input=${query({ 0: serialize({ date: '2027-03-13' }) })}`],
  ['bad input', true, `/trpc/slots.list?input=${query(serialize({ date: '12/03/2027' }))}`],
  ['bad input in a batch', true, `/trpc/slots.list?batch=1&input=${query({ 0: serialize({ date: 'x' }) })}`],
  ['no input', true, '/trpc/slots.list'],
  ['not JSON', false, '/trpc/slots.list?input=%7Bnope'],
  ['batch input not an object', false, `/trpc/slots.list?batch=1&input=${query([1])}`],
  ['query as POST', false, '/trpc/slots.list', { method: 'POST', headers: json, body: JSON.stringify(serialize({ date: '2027-03-12' })) }],
  ['batch of two', false, `/trpc/slots.list,slots.other?batch=1&input=${query({ 0: serialize({ date: '2027-03-12' }) })}`],
  ['mutation', true, '/trpc/booking.hold', { method: 'POST', headers: json, body: JSON.stringify(serialize({ bookingId: 'a', startsAt })) }],
  ['mutation, batch of one', true, '/trpc/booking.hold?batch=1', { method: 'POST', headers: json, body: JSON.stringify({ 0: serialize({ bookingId: 'a', startsAt }) }) }],
  ['mutation refused, with a header', true, '/trpc/booking.hold', { method: 'POST', headers: json, body: JSON.stringify(serialize({ bookingId: 'full', startsAt })) }],
  ['mutation failing unexpectedly', true, '/trpc/booking.hold', { method: 'POST', headers: json, body: JSON.stringify(serialize({ bookingId: 'boom', startsAt })) }],
  ['mutation, bad input', true, '/trpc/booking.hold', { method: 'POST', headers: json, body: JSON.stringify(serialize({ bookingId: 'a', startsAt: 'soon' })) }],
  ['mutation, body not JSON', false, '/trpc/booking.hold', { method: 'POST', headers: json, body: '{"json":' }],
  ['mutation, empty body', false, '/trpc/booking.hold', { method: 'POST', headers: json, body: '' }],
  ['mutation as GET', false, `/trpc/booking.hold?input=${query(serialize({ bookingId: 'a', startsAt }))}`],
  ['mutation over the body limit', false, '/trpc/booking.hold', { method: 'POST', headers: json, body: JSON.stringify(serialize({ bookingId: 'a'.repeat(2000), startsAt })) }],
];

describe('tRPC fast lane', () => {
  const laneCalls: string[] = [];
  const adapterCalls: string[] = [];
  const laneErrors: string[] = [];
  const adapterErrors: string[] = [];
  let lane: { server: Server; url: string };
  let adapter: { server: Server; url: string };
  beforeAll(async () => {
    lane = await listen(appWith(true, laneCalls, laneErrors));
    adapter = await listen(appWith(false, adapterCalls, adapterErrors));
  });
  afterAll(() => {
    lane.server.close();
    adapter.server.close();
  });

  it.each(requests)('answers as the adapter: %s', async (_name, answered, path, init) => {
    laneErrors.length = adapterErrors.length = laneCalls.length = adapterCalls.length = passedOn.length = 0;
    const [a, b] = await Promise.all([fetch(`${lane.url}${path}`, init), fetch(`${adapter.url}${path}`, init)]);
    const pick = (res: globalThis.Response) => ({ status: res.status, type: res.headers.get('content-type'), vary: res.headers.get('vary'), retryAfter: res.headers.get('retry-after') });
    expect(pick(a)).toEqual(pick(b));
    expect(await a.text()).toBe(await b.text());
    expect(laneCalls).toEqual(adapterCalls);
    expect(laneErrors).toEqual(adapterErrors);
    expect(passedOn).toHaveLength(answered ? 0 : 1);
  });

  it('round-trips Dates and undefined through the shared transformer', async () => {
    const res = await fetch(`${lane.url}/trpc/booking.hold`, { method: 'POST', headers: json, body: JSON.stringify(serialize({ bookingId: 'a', startsAt })) });
    const body = (await res.json()) as { result: { data: Parameters<typeof deserialize>[0] } };
    const data = deserialize(body.result.data) as { startsAt: Date; holdExpiresAt: Date };
    expect(data.startsAt).toBeInstanceOf(Date);
    expect(data.startsAt.toISOString()).toBe(startsAt.toISOString());
    expect(data.holdExpiresAt.getTime()).toBe(startsAt.getTime() + 600_000);
    const list = (await (await fetch(`${lane.url}/trpc/slots.list?input=${query(serialize({ date: '2027-03-12' }))}`)).json()) as { result: { data: Parameters<typeof deserialize>[0] } };
    const slots = deserialize(list.result.data) as { slots: Array<{ startsAt: Date }>; note?: string };
    expect(slots.slots[0]!.startsAt).toEqual(new Date('2027-03-12T14:00:00.000Z'));
    expect('note' in slots && slots.note === undefined).toBe(true);
  });

  it('sends the answer with its length, in one piece', async () => {
    const res = await fetch(`${lane.url}/trpc/slots.list?input=${query(serialize({ date: '2027-03-12' }))}`);
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });
});
