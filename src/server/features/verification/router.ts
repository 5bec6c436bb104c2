import { verifyInput } from '../../../shared/verification.ts';
import { rateLimitedProcedure, router } from '../../trpc.ts';
import { verifyDocument, verifyRate } from './service.ts';

/** Public: /verify asks here (rate limited per address). */
export const verificationRouter = router({
  check: rateLimitedProcedure(verifyRate).input(verifyInput).mutation(({ ctx, input }) => verifyDocument(ctx.deps, input)),
});
