import { z } from 'zod';
import { manageBookingInput } from '../../../shared/manage-booking.ts';
import {
  adoptSignatureInput,
  bookingIdInput,
  commissionInput,
  confirmIdentityInput,
  journalRangeInput,
  placeSignatureInput,
  sealInput,
  uploadCertificateInput,
} from '../../../shared/notarial-act.ts';
import { rateLimitedProcedure, router } from '../../trpc.ts';
import { confirmIdentity, customerIdentity, notaryIdentity, startStripeVerification } from '../identity/service.ts';
import { listJournal, verifyJournal } from '../journal/service.ts';
import { manageRate } from '../manage-booking/service.ts';
import { adminProcedure, roleProcedure } from '../staff/procedures.ts';
import * as act from './service.ts';

/** Token holders (the customer): the manage link is the only credential, rate limited like the page. */
const manageProcedure = rateLimitedProcedure(manageRate);

export const manageActRouter = router({
  identity: manageProcedure.input(manageBookingInput).query(({ ctx, input }) => customerIdentity(ctx.deps, input.token)),
  startIdentity: manageProcedure.input(manageBookingInput).mutation(({ ctx, input }) => startStripeVerification(ctx.deps, input.token)),
  get: manageProcedure.input(manageBookingInput).query(({ ctx, input }) => act.actForCustomer(ctx.deps, input.token)),
  adoptSignature: manageProcedure.input(adoptSignatureInput).mutation(({ ctx, input }) => act.adoptSignature(ctx.deps, input)),
});

/** Notaries see only bookings assigned to them (checked in the service); admins all; office staff none. */
const notaryOrAdmin = roleProcedure('admin', 'notary');
const notary = roleProcedure('notary');
const office = roleProcedure('admin', 'staff', 'notary');

export const actRouter = router({
  identity: notaryOrAdmin.input(bookingIdInput).query(({ ctx, input }) => notaryIdentity(ctx.deps, ctx.staff, input.bookingId)),
  confirmIdentity: notary.input(confirmIdentityInput).mutation(({ ctx, input }) => confirmIdentity(ctx.deps, ctx.staff, input)),
  get: notaryOrAdmin.input(bookingIdInput).query(({ ctx, input }) => act.actForStaff(ctx.deps, ctx.staff, input.bookingId)),
  place: notary.input(placeSignatureInput).mutation(({ ctx, input }) => act.placeSignature(ctx.deps, ctx.staff, input)),
  seal: notary.input(sealInput).mutation(({ ctx, input }) => act.sealDocument(ctx.deps, ctx.staff, input)),
  resendDocument: office.input(bookingIdInput).mutation(async ({ ctx, input }) => {
    await act.resendDocumentReady(ctx.deps, ctx.staff, input.bookingId);
    return { ok: true as const };
  }),
  profile: notary.query(({ ctx }) => act.getNotaryProfile(ctx.deps, ctx.staff.user.id)),
  updateCommission: notary
    .input(commissionInput.extend({ commissionCounty: z.string().trim().max(60).optional() }))
    .mutation(({ ctx, input }) => act.updateCommission(ctx.deps, ctx.staff, input)),
  notaryProfile: adminProcedure.input(z.object({ staffUserId: z.uuid() })).query(({ ctx, input }) => act.getNotaryProfile(ctx.deps, input.staffUserId)),
  uploadCertificate: adminProcedure.input(uploadCertificateInput).mutation(({ ctx, input }) => act.uploadCertificate(ctx.deps, ctx.staff, input)),
  journal: notaryOrAdmin.input(journalRangeInput).query(({ ctx, input }) => listJournal(ctx.deps.db, ctx.staff, input)),
  verifyJournal: adminProcedure.query(async ({ ctx }) => {
    const result = await verifyJournal(ctx.deps);
    return { ok: result.ok, entries: result.entries, problem: result.problem, unanchored: result.unanchored, latestCheckpointAt: result.latestCheckpoint?.takenAt.toISOString() ?? null };
  }),
});
