import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { KEY_CHANGES_POLL_MS } from '../db/data-version.ts';
import type { Database } from '../db/types.ts';
import { listAccounts, setAccountDisabled } from '../services/accounts/index.ts';
import { table } from './table.ts';
import { UsageError } from './usage-error.ts';

function accountName(sub: string, rest: string[]): string {
  const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, strict: true });
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(`accounts ${sub} needs exactly one account NAME`);
  return positionals[0];
}

export async function accountsCommand(db: Kysely<Database>, args: string[], out: (line: string) => void): Promise<void> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'list': {
      parseArgs({ args: rest, options: {}, strict: true });
      const accounts = await listAccounts(db);
      if (accounts.length === 0) {
        out('No accounts yet. Create one with: petstore keys create --account NAME');
        return;
      }
      out(
        table([
          ['NAME', 'CREATED', 'ACTIVE KEYS', 'DISABLED'],
          ...accounts.map((a) => [a.name, a.createdAt, String(a.activeKeys), a.disabledAt ?? '-']),
        ]),
      );
      return;
    }
    case 'disable':
    case 'enable': {
      const state = await setAccountDisabled(db, accountName(sub, rest), sub === 'disable');
      if (!state.changed) out(`Account "${state.name}" was already ${sub}d; nothing changed.`);
      else if (state.disabledAt)
        out(`Disabled account "${state.name}" at ${state.disabledAt}: running servers refuse its keys within ${KEY_CHANGES_POLL_MS} ms.`);
      else out(`Enabled account "${state.name}": its unrevoked keys work again.`);
      return;
    }
    default:
      throw new UsageError(sub ? `unknown accounts command '${sub}'` : 'accounts needs a command: list, disable or enable');
  }
}
