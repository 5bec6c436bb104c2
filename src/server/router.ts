import { consoleRouter } from './features/console/router.ts';
import { staffRouter } from './features/staff/router.ts';
import { publicProcedure, router } from './trpc.ts';

/**
 * The one root router: each feature adds its own router under its name.
 * Its type is what the client imports (types only).
 */
export const appRouter = router({
  health: publicProcedure.query(() => ({ ok: true as const })),
  staff: staffRouter,
  console: consoleRouter,
});

export type AppRouter = typeof appRouter;
