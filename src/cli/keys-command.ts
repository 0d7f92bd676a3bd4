import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/api-keys/index.ts';
import { table } from './table.ts';
import { UsageError } from './usage-error.ts';

export async function keysCommand(db: Kysely<Database>, args: string[], out: (line: string) => void): Promise<void> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create': {
      const { values } = parseArgs({ args: rest, options: { account: { type: 'string' } }, strict: true });
      if (!values.account) throw new UsageError('keys create needs --account NAME');
      const created = await createApiKey(db, values.account);
      out(`Created key ${created.id} (${created.prefix}…) for account "${created.account}". It is shown once and cannot be recovered:`);
      out(created.key);
      return;
    }
    case 'list': {
      parseArgs({ args: rest, options: {}, strict: true });
      const keys = await listApiKeys(db);
      if (keys.length === 0) {
        out('No API keys yet. Create one with: petstore keys create --account NAME');
        return;
      }
      out(
        table([
          ['ID', 'PREFIX', 'ACCOUNT', 'CREATED', 'LAST USED', 'REVOKED'],
          ...keys.map((k) => [String(k.id), k.prefix, k.account, k.createdAt, k.lastUsedAt ?? '-', k.revokedAt ?? '-']),
        ]),
      );
      return;
    }
    case 'revoke': {
      const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, strict: true });
      if (positionals.length !== 1 || !positionals[0]) throw new UsageError('keys revoke needs exactly one key ID (or prefix)');
      const revoked = await revokeApiKey(db, positionals[0]);
      out(
        revoked.alreadyRevoked
          ? `Key ${revoked.id} (${revoked.prefix}…) was already revoked at ${revoked.revokedAt}; nothing changed.`
          : `Revoked key ${revoked.id} (${revoked.prefix}…) at ${revoked.revokedAt}.`,
      );
      return;
    }
    default:
      throw new UsageError(sub ? `unknown keys command '${sub}'` : 'keys needs a command: create, list or revoke');
  }
}
