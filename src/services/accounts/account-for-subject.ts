import { hash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { inTransaction } from '../../db/in-transaction.ts';
import type { Database } from '../../db/types.ts';
import { insertAccount } from './insert-account.ts';

/** The account an issuer's subject names, and whether it may be used. */
export interface SubjectAccount {
  accountId: number;
  disabled: boolean;
}

const find = (db: Kysely<Database>, issuer: string, subject: string) =>
  db
    .selectFrom('account_identities')
    .innerJoin('accounts', 'accounts.id', 'account_identities.account_id')
    .select(['accounts.id', 'accounts.disabled_at'])
    .where('account_identities.issuer', '=', issuer)
    .where('account_identities.subject', '=', subject)
    .executeTakeFirst();

/** The readable part of a subject's account name: what the subject shows of itself (an e-mail address, a user name). */
function readable(subject: string): string {
  const part = subject
    .replace(/[^A-Za-z0-9._-]+/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 32);
  return part || 'user';
}

/**
 * The names a subject's account may take, in order: its readable part, `~`, and 10 hex of a
 * hash of issuer and subject; 24 if those 10 are taken (another subject's, 40 bits apart); 24
 * random ones past that. A name a person chooses holds no `~`, so no sign-up or CLI command can
 * take one of these first.
 */
function accountNamesFor(issuer: string, subject: string): string[] {
  const digest = hash('sha256', `${issuer}\n${subject}`, 'hex');
  const base = readable(subject);
  return [`${base}~${digest.slice(0, 10)}`, `${base}~${digest.slice(0, 24)}`, `${base}~${randomBytes(12).toString('hex')}`];
}

export interface SubjectAccountOptions {
  /** Make an account for a subject that has none; otherwise null. */
  create: boolean;
  /** Runs before an account is made, and may refuse it by throwing (the sign-up budgets). */
  admit?: () => Promise<void>;
}

/**
 * The account an access token's subject belongs to (account_identities), or null when it has
 * none and `create` is off. With `create`, a subject seen for the first time gets an account of
 * its own, as sign-up would make one (without a key: the token is its credential), once `admit`
 * allows it; two first requests racing settle on one account, the one whose identity row was
 * inserted.
 */
export async function accountForSubject(
  db: Kysely<Database>,
  issuer: string,
  subject: string,
  { create, admit }: SubjectAccountOptions,
): Promise<SubjectAccount | null> {
  const found = await find(db, issuer, subject);
  if (found) return { accountId: found.id, disabled: found.disabled_at !== null };
  if (!create) return null;
  await admit?.();
  const createdAt = new Date().toISOString();
  return inTransaction(db, async (trx) => {
    for (const name of accountNamesFor(issuer, subject)) {
      const again = await find(trx, issuer, subject);
      if (again) return { accountId: again.id, disabled: again.disabled_at !== null };
      // A conflict is another request making this very account (on PostgreSQL the insert waits
      // for it to commit, so its identity is there to read above), or a name taken: the next one.
      const accountId = await insertAccount(trx, name, createdAt);
      if (accountId === null) continue;
      await trx.insertInto('account_identities').values({ issuer, subject, account_id: accountId, created_at: createdAt }).execute();
      return { accountId, disabled: false };
    }
    throw new Error(`no free account name for ${issuer}'s subject`);
  });
}
