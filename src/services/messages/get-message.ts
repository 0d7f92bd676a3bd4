import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { AppError } from '../../errors/index.ts';
import type { FieldNaming } from '../validation/describe-issue.ts';
import { createValidator } from '../validation/validator.ts';
import { messageIdSchema } from './message-schema.ts';
import type { Message } from './message-schema.ts';
import { messageColumns, toMessage } from './to-message.ts';

const validateId = createValidator<{ id: string }>({ type: 'object', required: ['id'], properties: { id: messageIdSchema } });

/** Messages belong to the account that sent them: another account's message is "not found", not "forbidden". */
export async function getMessage(db: Kysely<Database>, accountId: number, id: string, naming?: FieldNaming): Promise<Message> {
  validateId({ id }, naming);
  const row = await db
    .selectFrom('messages')
    .select(messageColumns)
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw AppError.of('MESSAGE_NOT_FOUND', 'byId', { id });
  return toMessage(row);
}
