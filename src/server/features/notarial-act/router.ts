import { z } from 'zod';
import { manageBookingInput } from '../../../shared/manage-booking.ts';
import {
  adoptSignatureInput,
  answerOathInput,
  giveConsentInput,
  bookingIdInput,
  commissionInput,
  confirmAbroadInput,
  recordCredibleWitnessInput,
  confirmIdentityInput,
  journalRangeInput,
  markNotNotarizableInput,
  markSupportingInput,
  sealInput,
  uploadCertificateInput,
} from '../../../shared/notarial-act.ts';
import { kbaAnswerInput, kbaStartInput } from '../../../shared/kba.ts';
import { fillFieldInput, removeFieldInput, saveFieldInput } from '../../../shared/document-fields.ts';
import { clientAddress, rateLimitedProcedure, router } from '../../trpc.ts';
import { isSingleLine, singleLineMessage } from '../../../shared/fields.ts';
import { answerKba, customerKba, startKba } from '../identity/kba-service.ts';
import { confirmIdentity, customerIdentity, notaryIdentity, startStripeVerification } from '../identity/service.ts';
import { listJournal, verifyJournal } from '../journal/service.ts';
import { manageRate } from '../customer-links/service.ts';
import { adminProcedure, roleProcedure } from '../staff/procedures.ts';
import * as act from './service.ts';
import * as fields from './fields-service.ts';
import { recordCredibleWitness } from './credible-witness.ts';

/** Token holders (the customer): the manage link is the only credential, rate limited like the page. */
const manageProcedure = rateLimitedProcedure(manageRate);

export const manageActRouter = router({
  identity: manageProcedure.input(manageBookingInput).query(({ ctx, input }) => customerIdentity(ctx.deps, input.token)),
  startIdentity: manageProcedure.input(manageBookingInput).mutation(({ ctx, input }) => startStripeVerification(ctx.deps, input.token)),
  kba: manageProcedure.input(manageBookingInput).query(({ ctx, input }) => customerKba(ctx.deps, input.token)),
  startKba: manageProcedure.input(kbaStartInput).mutation(({ ctx, input }) => startKba(ctx.deps, input.token, input.person)),
  answerKba: manageProcedure.input(kbaAnswerInput).mutation(({ ctx, input }) => answerKba(ctx.deps, input)),
  get: manageProcedure.input(manageBookingInput).query(({ ctx, input }) => act.actForCustomer(ctx.deps, input.token)),
  adoptSignature: manageProcedure.input(adoptSignatureInput).mutation(({ ctx, input }) => act.adoptSignature(ctx.deps, input)),
  fillField: manageProcedure.input(fillFieldInput).mutation(({ ctx, input }) => fields.fillField(ctx.deps, input)),
  giveConsent: manageProcedure.input(giveConsentInput).mutation(({ ctx, input }) => act.giveConsent(ctx.deps, input, clientAddress(ctx))),
  answerOath: manageProcedure.input(answerOathInput).mutation(({ ctx, input }) => act.answerOath(ctx.deps, input)),
});

/**
 * Any signed-in staff member: who may do what to a booking is the access
 * policy's answer, asked by the service (features/access), not a second rule
 * set here. Only what belongs to a role rather than a booking (a notary's own
 * commission, an admin's certificate upload) is decided by the role.
 */
const bookingStaff = roleProcedure('admin', 'staff', 'notary');
const notary = roleProcedure('notary');

export const actRouter = router({
  identity: bookingStaff.input(bookingIdInput).query(({ ctx, input }) => notaryIdentity(ctx.deps, ctx.staff, input.bookingId)),
  confirmIdentity: bookingStaff.input(confirmIdentityInput).mutation(({ ctx, input }) => confirmIdentity(ctx.deps, ctx.staff, input)),
  get: bookingStaff.input(bookingIdInput).query(({ ctx, input }) => act.actForStaff(ctx.deps, ctx.staff, input.bookingId)),
  saveField: bookingStaff.input(saveFieldInput).mutation(({ ctx, input }) => fields.saveField(ctx.deps, ctx.staff, input)),
  removeField: bookingStaff.input(removeFieldInput).mutation(({ ctx, input }) => fields.removeField(ctx.deps, ctx.staff, input)),
  administerOath: bookingStaff.input(bookingIdInput).mutation(({ ctx, input }) => act.administerOath(ctx.deps, ctx.staff, input.bookingId)),
  /** A witness who identifies a named signer (a credible witness; decision 124). */
  recordCredibleWitness: notary.input(recordCredibleWitnessInput).mutation(({ ctx, input }) => recordCredibleWitness(ctx.deps, ctx.staff, input)),
  /** The co-signers and witnesses abroad (each confirmed with `confirmAbroad` and their participantId). */
  signersAbroad: bookingStaff.input(bookingIdInput).query(({ ctx, input }) => act.signersAbroad(ctx.deps, ctx.staff, input.bookingId)),
  confirmAbroad: bookingStaff.input(confirmAbroadInput).mutation(({ ctx, input }) => act.confirmAbroad(ctx.deps, ctx.staff, input.bookingId, input.participantId ?? null)),
  seal: bookingStaff.input(sealInput).mutation(({ ctx, input }) => act.sealDocument(ctx.deps, ctx.staff, input)),
  markSupporting: bookingStaff.input(markSupportingInput).mutation(({ ctx, input }) => act.markSupporting(ctx.deps, ctx.staff, input)),
  markNotNotarizable: bookingStaff.input(markNotNotarizableInput).mutation(({ ctx, input }) => act.markNotNotarizable(ctx.deps, ctx.staff, input)),
  resendDocument: bookingStaff.input(bookingIdInput).mutation(async ({ ctx, input }) => {
    await act.resendDocumentReady(ctx.deps, ctx.staff, input.bookingId);
    return { ok: true as const };
  }),
  profile: notary.query(({ ctx }) => act.getNotaryProfile(ctx.deps, ctx.staff.user.id)),
  updateCommission: notary
    .input(commissionInput.extend({ commissionCounty: z.string().trim().max(60).refine(isSingleLine, singleLineMessage('The county')).optional() }))
    .mutation(({ ctx, input }) => act.updateCommission(ctx.deps, ctx.staff, input)),
  notaryProfile: adminProcedure.input(z.object({ staffUserId: z.uuid() })).query(({ ctx, input }) => act.getNotaryProfile(ctx.deps, input.staffUserId)),
  uploadCertificate: adminProcedure.input(uploadCertificateInput).mutation(({ ctx, input }) => act.uploadCertificate(ctx.deps, ctx.staff, input)),
  journal: bookingStaff.input(journalRangeInput).query(({ ctx, input }) => listJournal(ctx.deps.db, ctx.staff, input)),
  verifyJournal: adminProcedure.query(async ({ ctx }) => {
    const result = await verifyJournal(ctx.deps);
    return { ok: result.ok, entries: result.entries, problem: result.problem, unanchored: result.unanchored, latestCheckpointAt: result.latestCheckpoint?.takenAt.toISOString() ?? null };
  }),
});
