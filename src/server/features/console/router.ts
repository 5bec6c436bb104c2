import { router } from '../../trpc.ts';
import {
  assignNotaryInput,
  bookingListInput,
  consoleBookingIdInput,
  mailIdInput,
  mailListInput,
  markOutcomeInput,
  messageIdInput,
  messageListInput,
  adminRefundInput,
  staffCancelInput,
  staffRescheduleInput,
  pastAppointmentsInput,
} from '../../../shared/console.ts';
import { adminProcedure, roleProcedure } from '../staff/procedures.ts';
import * as mailService from '../notifications/mail-service.ts';
import * as consoleService from './service.ts';
import * as availabilityService from '../availability/service.ts';
import { actChanged } from '../act/service.ts';
import { offSickInput, saveHoursInput, setDutyInput } from '../../../shared/availability.ts';
import { notaryHeartbeatInput } from '../../../shared/on-demand.ts';
import * as onDemandService from '../on-demand/service.ts';

const office = roleProcedure('admin', 'staff');
/** Notaries pass too, but the service limits them to their own appointments. */
const anyRole = roleProcedure('admin', 'staff', 'notary');
/** Working hours: a notary their own, an admin everyone's (the service checks whose); office staff not at all. */
const notaryOrAdmin = roleProcedure('admin', 'notary');

const availabilityRouter = router({
  get: notaryOrAdmin.query(({ ctx }) => availabilityService.getAvailability(ctx.deps, ctx.staff)),
  save: notaryOrAdmin.input(saveHoursInput).mutation(async ({ ctx, input }) => {
    await availabilityService.saveHours(ctx.deps, ctx.staff, input);
    return { ok: true as const };
  }),
  setDuty: notaryOrAdmin.input(setDutyInput).mutation(async ({ ctx, input }) => {
    await availabilityService.setDuty(ctx.deps, ctx.staff, input);
    return { ok: true as const };
  }),
  offSick: notaryOrAdmin.input(offSickInput).mutation(async ({ ctx, input }) => {
    const result = await availabilityService.offSick(ctx.deps, ctx.staff, input);
    // After the commit: a notary no longer assigned loses the room (as assignNotary).
    for (const bookingId of result.bookingIds) actChanged(ctx.deps, bookingId, 'access');
    return { reassigned: result.reassigned, unassigned: result.unassigned };
  }),
});

/** Notarize now (decision 110): notaries (and admins, to watch) see the line; only notaries accept. */
const onDemandRouter = router({
  waiting: notaryOrAdmin.query(({ ctx }) => onDemandService.waitingCustomers(ctx.deps, ctx.staff)),
  accept: roleProcedure('notary').mutation(({ ctx }) => onDemandService.accept(ctx.deps, ctx.staff)),
  heartbeat: roleProcedure('notary')
    .input(notaryHeartbeatInput)
    .mutation(({ ctx, input }) => onDemandService.notaryHeartbeat(ctx.deps, ctx.staff, input.bookingId)),
});

export const consoleRouter = router({
  availability: availabilityRouter,
  onDemand: onDemandRouter,
  bookings: router({
    list: office.input(bookingListInput).query(({ ctx, input }) => consoleService.listBookings(ctx.deps, ctx.staff, input)),
    get: anyRole.input(consoleBookingIdInput).query(({ ctx, input }) => consoleService.getBooking(ctx.deps, ctx.staff, input.bookingId)),
    assignNotary: office.input(assignNotaryInput).mutation(async ({ ctx, input }) => {
      await consoleService.assignNotary(ctx.deps, ctx.staff, input);
      return { ok: true as const };
    }),
    markOutcome: anyRole.input(markOutcomeInput).mutation(async ({ ctx, input }) => {
      await consoleService.markOutcome(ctx.deps, ctx.staff, input);
      return { ok: true as const };
    }),
    /** Staff move a booking for a customer (who are told to call inside 24 hours). */
    reschedule: office.input(staffRescheduleInput).mutation(async ({ ctx, input }) => {
      await consoleService.rescheduleBooking(ctx.deps, ctx.staff, input);
      return { ok: true as const };
    }),
    cancel: office.input(staffCancelInput).mutation(({ ctx, input }) => consoleService.cancelBooking(ctx.deps, ctx.staff, input)),
    /** Admins refund with a reason, without cancelling (the act, once sealed, is never undone). */
    refund: adminProcedure.input(adminRefundInput).mutation(({ ctx, input }) => consoleService.refundBooking(ctx.deps, ctx.staff, input)),
  }),
  appointments: roleProcedure('notary').query(({ ctx }) => consoleService.listAppointments(ctx.deps, ctx.staff)),
  pastAppointments: roleProcedure('notary').input(pastAppointmentsInput).query(({ ctx, input }) => consoleService.listPastAppointments(ctx.deps, ctx.staff, input)),
  newAppointments: roleProcedure('notary').query(({ ctx }) => consoleService.newAppointmentCount(ctx.deps, ctx.staff)),
  messages: router({
    list: office.input(messageListInput).query(({ ctx, input }) => consoleService.listMessages(ctx.deps, input.show)),
    markHandled: office.input(messageIdInput).mutation(async ({ ctx, input }) => {
      await consoleService.markMessageHandled(ctx.deps, ctx.staff, input.messageId);
      return { ok: true as const };
    }),
  }),
  /** The mail outbox: admins and office staff only (it holds every customer's email). */
  mail: router({
    list: office.input(mailListInput).query(({ ctx, input }) => mailService.listMail(ctx.deps, input)),
    get: office.input(mailIdInput).query(({ ctx, input }) => mailService.getMail(ctx.deps, input.messageId)),
    retry: office.input(mailIdInput).mutation(async ({ ctx, input }) => {
      await mailService.retryMail(ctx.deps, ctx.staff, input.messageId);
      return { ok: true as const };
    }),
  }),
});
