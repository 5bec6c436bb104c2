import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { trpcMaxBatchSize } from '../../shared/trpc-limits.ts';
import { createTRPCReact } from '@trpc/react-query';
import { transformer } from '../../shared/trpc-transformer.ts';
import type { AppRouter } from '../../server/router.ts';

/**
 * Two ways to call the server, sharing the router's types:
 * - `trpc` (React Query hooks) inside areas wrapped by <TrpcProvider> (wizard, console);
 * - `api` (plain client, a few KB) for small forms on marketing pages, which
 *   must not pull React Query into their first load.
 */
export const trpc = createTRPCReact<AppRouter>();

export const trpcLinks = () => [httpBatchLink({ url: '/trpc', transformer, maxItems: trpcMaxBatchSize })];

export const api = createTRPCClient<AppRouter>({ links: trpcLinks() });
