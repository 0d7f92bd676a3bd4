import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Message } from './message-schema.ts';
import { messageColumns, toMessage } from './to-message.ts';

/** Many messages by id in one query (the live feed's watch list, whose owners were checked when each was watched). */
export async function getMessages(db: Kysely<Database>, ids: readonly string[]): Promise<Message[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('messages').select(messageColumns).where('id', 'in', ids).execute();
  return rows.map(toMessage);
}
