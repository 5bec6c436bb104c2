import { createUploadInput, removeDocumentInput } from '../../../shared/booking.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { createUpload, removeDocument } from './service.ts';

/** Upload targets and removal; the bytes themselves go through `PUT /api/uploads/:token` (http/uploads.ts). */
export const documentsRouter = router({
  createUpload: publicProcedure.input(createUploadInput).mutation(({ ctx, input }) => createUpload(ctx.deps, input)),
  remove: publicProcedure.input(removeDocumentInput).mutation(({ ctx, input }) => removeDocument(ctx.deps, input)),
});
