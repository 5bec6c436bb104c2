import { and, asc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { auditLog, staffInvites, staffSessions, staffUsers, type StaffRole } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/** Staff accounts, their sessions and invitations: the staff feature's reads and writes. */

// ---- Accounts ----------------------------------------------------------------

export async function insertStaffAudit(
  db: DbOrTx,
  entry: { actorId: string | null; action: string; entityType: string; entityId: string; data?: Record<string, unknown> },
): Promise<void> {
  await db.insert(auditLog).values({ actorType: 'staff', ...entry, data: entry.data ?? null });
}

/** The account behind an email (already normalised), any case. */
export async function findUserByNormalisedEmail(db: DbOrTx, email: string) {
  const [user] = await db
    .select()
    .from(staffUsers)
    .where(sql`lower(${staffUsers.email}) = ${email}`);
  return user;
}

export async function findUserById(db: DbOrTx, userId: string) {
  const [user] = await db.select().from(staffUsers).where(eq(staffUsers.id, userId));
  return user;
}

export async function insertUser(db: DbOrTx, values: typeof staffUsers.$inferInsert): Promise<{ id: string; role: StaffRole }> {
  const [user] = await db.insert(staffUsers).values(values).returning({ id: staffUsers.id, role: staffUsers.role });
  return user!;
}

export async function updateUser(db: DbOrTx, userId: string, patch: Partial<typeof staffUsers.$inferInsert>): Promise<void> {
  await db.update(staffUsers).set(patch).where(eq(staffUsers.id, userId));
}

export async function totpKeyOf(db: DbOrTx, userId: string) {
  const [user] = await db.select({ totpKey: staffUsers.totpKey, totpEnabled: staffUsers.totpEnabled }).from(staffUsers).where(eq(staffUsers.id, userId));
  return user;
}

export async function passwordHashOf(db: DbOrTx, userId: string) {
  const [user] = await db.select({ passwordHash: staffUsers.passwordHash }).from(staffUsers).where(eq(staffUsers.id, userId));
  return user;
}

/** One conditional UPDATE: the time step is taken only when later than the last one used. True when taken. */
export async function claimTotpStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const claimed = await db
    .update(staffUsers)
    .set({ totpLastStep: step })
    .where(and(eq(staffUsers.id, userId), sql`(${staffUsers.totpLastStep} is null or ${staffUsers.totpLastStep} < ${step})`))
    .returning({ id: staffUsers.id });
  return claimed.length === 1;
}

/** Replaces the stored TOTP key only if it is still `stored` (a re-seal racing another). */
export async function resealTotpKey(db: DbOrTx, userId: string, stored: string, resealed: string): Promise<void> {
  await db.update(staffUsers).set({ totpKey: resealed }).where(and(eq(staffUsers.id, userId), eq(staffUsers.totpKey, stored)));
}

export async function listUsers(db: DbOrTx) {
  return db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      role: staffUsers.role,
      active: staffUsers.active,
      totpEnabled: staffUsers.totpEnabled,
      lastSeenAt: staffUsers.lastSeenAt,
      createdAt: staffUsers.createdAt,
    })
    .from(staffUsers)
    .orderBy(asc(staffUsers.email));
}

export async function listActiveNotaries(db: DbOrTx) {
  return db
    .select({ id: staffUsers.id, name: staffUsers.name, email: staffUsers.email, timeZone: staffUsers.timeZone })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'notary'), eq(staffUsers.active, true)))
    .orderBy(asc(staffUsers.name), asc(staffUsers.email));
}

export async function activeAdminCount(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.active, true)));
  return Number(row?.n ?? 0);
}

// ---- Invitations -------------------------------------------------------------

export async function listOpenInvites(db: DbOrTx, now: Date) {
  return db
    .select({ id: staffInvites.id, email: staffInvites.email, role: staffInvites.role, expiresAt: staffInvites.expiresAt, createdAt: staffInvites.createdAt })
    .from(staffInvites)
    .where(and(isNull(staffInvites.acceptedAt), gt(staffInvites.expiresAt, now)))
    .orderBy(asc(staffInvites.createdAt));
}

export async function insertInvite(db: DbOrTx, values: typeof staffInvites.$inferInsert): Promise<{ id: string }> {
  const [invite] = await db.insert(staffInvites).values(values).returning({ id: staffInvites.id });
  return invite!;
}

export async function deleteOpenInvite(db: DbOrTx, inviteId: string): Promise<void> {
  await db.delete(staffInvites).where(and(eq(staffInvites.id, inviteId), isNull(staffInvites.acceptedAt)));
}

export async function findOpenInvite(db: DbOrTx, tokenHash: string, now: Date) {
  const [invite] = await db
    .select()
    .from(staffInvites)
    .where(and(eq(staffInvites.tokenHash, tokenHash), isNull(staffInvites.acceptedAt), gt(staffInvites.expiresAt, now)));
  return invite;
}

/** Uses an open invitation (one conditional UPDATE); undefined when none. */
export async function claimInvite(db: DbOrTx, tokenHash: string, now: Date) {
  const [invite] = await db
    .update(staffInvites)
    .set({ acceptedAt: now })
    .where(and(eq(staffInvites.tokenHash, tokenHash), isNull(staffInvites.acceptedAt), gt(staffInvites.expiresAt, now)))
    .returning();
  return invite;
}

// ---- Sessions ----------------------------------------------------------------

export async function insertSession(db: DbOrTx, values: typeof staffSessions.$inferInsert): Promise<void> {
  await db.insert(staffSessions).values(values);
}

export async function deleteExpiredSessions(db: DbOrTx, now: Date): Promise<void> {
  await db
    .delete(staffSessions)
    .where(or(lt(staffSessions.expiresAt, now), lt(staffSessions.absoluteExpiresAt, now)));
}

/** A session and its user, by the session id (the token's SHA-256). */
export async function findSessionWithUser(db: DbOrTx, sessionId: string) {
  const [row] = await db
    .select({
      expiresAt: staffSessions.expiresAt,
      absoluteExpiresAt: staffSessions.absoluteExpiresAt,
      twoFactorVerified: staffSessions.twoFactorVerified,
      userId: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      role: staffUsers.role,
      timeZone: staffUsers.timeZone,
      active: staffUsers.active,
      totpEnabled: staffUsers.totpEnabled,
    })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
    .where(eq(staffSessions.id, sessionId));
  return row;
}

export async function updateSession(db: DbOrTx, sessionId: string, patch: Partial<typeof staffSessions.$inferInsert>): Promise<void> {
  await db.update(staffSessions).set(patch).where(eq(staffSessions.id, sessionId));
}

export async function deleteSessionRow(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(staffSessions).where(eq(staffSessions.id, sessionId));
}

/** Every session of a user; optionally keeps one. */
export async function deleteSessionsOf(db: DbOrTx, userId: string, exceptSessionId?: string): Promise<void> {
  await db
    .delete(staffSessions)
    .where(
      exceptSessionId
        ? and(eq(staffSessions.userId, userId), ne(staffSessions.id, exceptSessionId))
        : eq(staffSessions.userId, userId),
    );
}
