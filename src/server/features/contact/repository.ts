import { contactMessages } from '../../db/schema.ts';
import type { DbOrTx } from '../../db/client.ts';

/** The contact feature's one table: messages from the site's forms. */
export async function insertContactMessage(db: DbOrTx, values: typeof contactMessages.$inferInsert): Promise<string> {
  const [message] = await db.insert(contactMessages).values(values).returning({ id: contactMessages.id });
  return message!.id;
}
