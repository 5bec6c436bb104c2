/**
 * The floors, each run as its own process by the bench (a floor sharing the
 * load generator's process measures half its real speed):
 *
 *   node scripts/bench/floor.ts replay <spec.json>  # a bare node:http server answering the captured status, headers and bytes
 *   node scripts/bench/floor.ts socket <ack.json>   # a bare Socket.IO server acknowledging `send` with the app's answer
 *   node scripts/bench/floor.ts sql <spec.json>     # a bare `pg` client issuing an endpoint's recorded statements
 *   node scripts/bench/floor.ts http-sql <spec.json> # a bare node:http server issuing them per request and answering the app's captured bytes
 *   node scripts/bench/floor.ts page <spec.json>    # a bare React + react-router page server for Lighthouse (floor-page.ts)
 *   node scripts/bench/floor.ts framework <spec.json> # Express + the tRPC fast lane answering `slots.list` with the app's data, no database, none of our middleware
 *
 * Servers print `{"url": ...}` once listening; the SQL floor prints its figures as JSON.
 */
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import pg from 'pg';
import { Server as SocketServer } from 'socket.io';
import type { PageFloorSpec } from './floor-page.ts';

export interface ReplaySpec {
  status: number;
  headers: OutgoingHttpHeaders;
  bodyBase64: string;
}

export interface SqlStatement {
  /** Set when the app sent it as a named prepared statement. */
  name?: string;
  text: string;
  values: unknown[];
}

export interface SqlSpec {
  url: string;
  connections: number;
  poolSize: number;
  durationSeconds: number;
  /** One entry per recorded request: its statements in order (BEGIN/COMMIT included when the app sent them). */
  requests: SqlStatement[][];
}

/**
 * The HTTP and SQL floor (decision 137): per HTTP request, one recorded
 * request's statements (in turn, as the SQL floor), then the app's captured
 * answer — an HTTP exchange and the endpoint's SQL, with none of our work.
 */
export interface HttpSqlSpec {
  url: string;
  poolSize: number;
  requests: SqlStatement[][];
  answer: ReplaySpec;
}

/** The framework floor: the app's answer to one query procedure (its `result.data` on the wire), served with no work. */
export interface FrameworkSpec {
  procedure: string;
  data: unknown;
}

export interface SqlFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const [mode, specFile] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specFile!, 'utf8')) as unknown;

function listen(server: ReturnType<typeof createServer>) {
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
  });
  process.on('SIGTERM', () => process.exit(0));
}

if (mode === 'replay') {
  const { status, headers, bodyBase64 } = spec as ReplaySpec;
  const body = Buffer.from(bodyBase64, 'base64');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  listen(server);
} else if (mode === 'socket') {
  const server = createServer();
  const io = new SocketServer(server, { serveClient: false });
  io.of('/chat').on('connection', (socket) => {
    socket.on('send', (_input: unknown, callback: (answer: unknown) => void) => callback(spec));
  });
  listen(server);
} else if (mode === 'sql') {
  const { url, connections, poolSize, durationSeconds, requests } = spec as SqlSpec;
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const deadline = performance.now() + durationSeconds * 1000;
  // Each "request" runs its statements on one pooled connection, in order,
  // as the app's transaction does (the app's reads outside a transaction may
  // use any connection: this floor is at least as fast).
  const loop = async () => {
    while (performance.now() < deadline) {
      const statements = requests[n++ % requests.length]!;
      const t0 = performance.now();
      if (!(await replay(pool, statements))) errors++;
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = performance.now() - started;
  await pool.end();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  const figures: SqlFigures = { rps: (latencies.length / elapsed) * 1000, p50: at(0.5), p99: at(0.99), errors };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
} else if (mode === 'http-sql') {
  const { url, poolSize, requests, answer } = spec as HttpSqlSpec;
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const body = Buffer.from(answer.bodyBase64, 'base64');
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      void replay(pool, requests[n++ % requests.length]!).then((done) => {
        // A failed replay answers 500: autocannon counts it, and the bench refuses the floor.
        res.writeHead(done ? answer.status : 500, done ? answer.headers : {});
        res.end(done ? body : undefined);
      });
    });
  });
  listen(server);
} else if (mode === 'framework') {
  // decision 053's framework floor (scripts/bench/framework-floor.ts `lane`), answering with the app's own data.
  const { procedure, data } = spec as FrameworkSpec;
  const [{ initTRPC }, { createExpressMiddleware }, { default: express }, { z }, { transformer, deserialize }, { trpcFastLane }] = await Promise.all([
    import('@trpc/server'),
    import('@trpc/server/adapters/express'),
    import('express'),
    import('zod'),
    import('../../src/shared/trpc-transformer.ts'),
    import('../../src/server/http/trpc-fast-lane.ts'),
  ]);
  const answer = deserialize(data);
  const t = initTRPC.create({ transformer });
  const [area, name] = procedure.split('.') as [string, string];
  const router = t.router({ [area]: t.router({ [name]: t.procedure.input(z.record(z.string(), z.unknown())).query(() => answer) }) });
  const app = express();
  app.use('/trpc', trpcFastLane({ router, procedures: { [procedure]: 'query' }, createContext: () => ({}), maxBodySize: 100_000 }));
  app.use('/trpc', createExpressMiddleware({ router }));
  listen(createServer(app));
} else if (mode === 'page') {
  await servePageFloor(spec as PageFloorSpec);
} else {
  throw new Error(`unknown floor mode "${mode}"`);
}

/**
 * One request's statements on one pooled connection, in order, as the app's
 * transaction runs them (the app's reads outside a transaction may use any
 * connection: this floor is at least as fast). False when one failed.
 */
async function replay(pool: pg.Pool, statements: SqlStatement[]): Promise<boolean> {
  const client = await pool.connect();
  try {
    for (const { name, text, values } of statements) await (name ? client.query({ name, text, values }) : client.query(text, values));
    return true;
  } catch {
    await client.query('rollback').catch(() => {});
    return false;
  } finally {
    client.release();
  }
}

/**
 * Server-renders the floor page with the data router's static handler (as
 * src/client/entry-server.tsx does) and serves its built client; everything
 * brotli-compressed once (quality 11), as the app sends its assets and cached pages.
 */
async function servePageFloor({ clientDir, entry, pages }: PageFloorSpec) {
  const [{ createElement: h, StrictMode }, { renderToString }, router, page] = await Promise.all([
    import('react'),
    import('react-dom/server'),
    import('react-router-dom'),
    import('./floor-page/page.ts'),
  ]);
  const handler = router.createStaticHandler([{ path: '*', loader: ({ request }) => pages[new URL(request.url).pathname] ?? [], Component: page.Component }]);
  const brotli = (bytes: Buffer | string) => brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
  const cache = new Map<string, { type: string; body: Buffer }>();
  const respond = async (url: string) => {
    if (url.startsWith('/assets/')) {
      const file = path.join(clientDir, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
      return { type: 'text/javascript', body: brotli(readFileSync(file)) };
    }
    const context = await handler.query(new Request(new URL(url, 'http://floor')));
    if (context instanceof Response) throw new Error('unexpected redirect');
    const html = renderToString(h(StrictMode, null, h(router.StaticRouterProvider, { router: router.createStaticRouter(handler.dataRoutes, context), context })));
    const title = pages[url]?.find((b) => b.tag === 'h1')?.text ?? 'Floor';
    const document = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title.replace(/[<&]/g, '')}</title><meta name="description" content="The React and react-router floor page."><script type="module" crossorigin src="${entry}"></script></head><body><div id="root">${html}</div></body></html>`;
    return { type: 'text/html; charset=utf-8', body: brotli(document) };
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor').pathname;
    const cached = cache.get(url);
    const answer = cached ? Promise.resolve(cached) : respond(url);
    answer.then(
      (result) => {
        cache.set(url, result);
        res.writeHead(200, { 'Content-Type': result.type, 'Content-Encoding': 'br', 'Content-Length': result.body.length, 'Cache-Control': 'no-cache' });
        res.end(result.body);
      },
      () => {
        res.writeHead(404);
        res.end();
      },
    );
  });
  listen(server);
}
