import { ControlledTransaction } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './types.ts';

let savepoints = 0;

async function inSavepoint<T>(db: ControlledTransaction<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const name = `petstore_${++savepoints}`;
  const inner = (await db.savepoint(name).execute()) as ControlledTransaction<Database, [string]>;
  try {
    const result = await work(inner);
    await inner.releaseSavepoint(name).execute();
    return result;
  } catch (error) {
    await inner.rollbackToSavepoint(name).execute();
    throw error;
  }
}

/**
 * Runs `work` in a transaction: a new one, or, when `db` is already a request's transaction
 * (an Idempotency-Key request runs in one, services/idempotency), a savepoint inside it, so
 * that a service failing half-way undoes its own writes and nothing else.
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db instanceof ControlledTransaction) return inSavepoint(db as ControlledTransaction<Database>, work);
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

/**
 * Runs `work` on its own inside a request's transaction (a savepoint), or as it is outside one:
 * for steps that are atomic alone but share a transaction with others.
 */
export function onItsOwn<T>(db: Kysely<Database>, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return db instanceof ControlledTransaction ? inSavepoint(db as ControlledTransaction<Database>, work) : work(db);
}
