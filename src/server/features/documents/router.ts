import { createUploadInput, removeDocumentInput } from '../../../shared/booking.ts';
import type { RateRule } from '../../rate-limit.ts';
import { publicProcedure, rateLimitedProcedure, router } from '../../trpc.ts';
import { createUpload, removeDocument } from './service.ts';

/** Each upload URL admits up to 10 MB into storage and a virus scan: per visitor address, shared by every node. */
export const uploadRate: RateRule = { name: 'documents:upload', limit: 60, windowSeconds: 600 };

/** Upload targets and removal; the bytes themselves go through `PUT /api/uploads/:token` (http/uploads.ts). */
export const documentsRouter = router({
  createUpload: rateLimitedProcedure(uploadRate).input(createUploadInput).mutation(({ ctx, input }) => createUpload(ctx.deps, input)),
  remove: publicProcedure.input(removeDocumentInput).mutation(({ ctx, input }) => removeDocument(ctx.deps, input)),
});
