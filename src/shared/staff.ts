import { isSingleLine, singleLineMessage } from './fields.ts';
import { z } from 'zod';

import { staffRoles, type StaffRole } from './staff-roles.ts';

/** Staff accounts and console inputs, checked on both sides. */
export { homePathFor, staffRoleLabels, staffRoles, type StaffRole } from './staff-roles.ts';

export const loginFailedMessage = 'Incorrect email or password.';
export const invalidCodeMessage = 'That code is not right. Codes change every 30 seconds — enter the current one.';
export const inviteInvalidMessage = 'This invitation link is invalid or has expired.';

const email = z.string().trim().toLowerCase().pipe(z.email({ message: 'Please enter a valid email address' }).max(254));
const code = z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code');
const password = z.string().min(1, 'Please enter your password').max(256);
const uuid = z.uuid();

export const loginInput = z.object({ email, password });
export const totpCodeInput = z.object({ code });
export const inviteInput = z.object({ email, role: z.enum(staffRoles) });
export const inviteTokenInput = z.object({ token: z.string().regex(/^[a-z2-7]{32}$/, 'Invalid invitation') });
export const acceptInviteInput = inviteTokenInput.extend({
  name: z.string().trim().min(1, 'Please enter your name').max(100).refine(isSingleLine, singleLineMessage('Name')),
  password: z.string().min(12, 'Use at least 12 characters for the password.').max(256),
});
export const userIdInput = z.object({ userId: uuid });
export const inviteIdInput = z.object({ inviteId: uuid });
export const setRoleInput = z.object({ userId: uuid, role: z.enum(staffRoles) });
export const updateProfileInput = z.object({
  name: z.string().trim().min(1, 'Please enter your name').max(100).refine(isSingleLine, singleLineMessage('Name')),
  timeZone: z.string().min(1).max(64),
});
export const changePasswordInput = z.object({
  currentPassword: password,
  newPassword: z.string().min(12, 'Use at least 12 characters for the password.').max(256),
});

/** The console's role rules, shared so the navigation shows only what the server allows. */
export const consolePages = {
  bookings: ['admin', 'staff'],
  appointments: ['notary'],
  chat: ['admin', 'staff'],
  messages: ['admin', 'staff'],
  mail: ['admin', 'staff'],
  staff: ['admin'],
  journal: ['admin', 'notary'],
  hours: ['admin', 'notary'],
  account: ['admin', 'staff', 'notary'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type ConsolePage = keyof typeof consolePages;

