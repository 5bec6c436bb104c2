/**
 * Staff roles without the input schemas (no Zod): what the console's sign-in
 * pages need on their first load. Re-exported by ./staff.ts.
 */
export const staffRoles = ['admin', 'staff', 'notary'] as const;
export type StaffRole = (typeof staffRoles)[number];
export const staffRoleLabels: Record<StaffRole, string> = { admin: 'Admin', staff: 'Staff', notary: 'Notary' };

export function homePathFor(role: StaffRole): string {
  return role === 'notary' ? '/admin/appointments' : '/admin/bookings';
}
