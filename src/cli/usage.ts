import { EXIT_CODES } from './exit-codes.ts';
import { KEY_CHANGES_POLL_MS } from '../db/data-version.ts';
import { SCOPES } from '../services/access-tokens/scopes.ts';
import { ACCOUNT_NAME_RULE } from '../services/api-keys/key-format.ts';
import { KEY_USAGE_FLUSH_MS } from '../services/api-keys/key-usage.ts';

/**
 * Help for each command, by the words that name it: `petstore help`, `petstore <command> --help`
 * and `petstore help <command>` print these.
 */
export const HELP: Record<string, string> = {
  '': `Usage: petstore <command> [options]

Commands:
  serve                          Start the server (what \`npm start\` runs)
  migrate [--check]              Apply pending database migrations (--check: only list them)
  backup PATH                    Copy the SQLite database to a new file while it serves
  keys create --account NAME     Create an API key (and the account when new); the key is the last line
  keys list                      List keys: id, prefix, account, created, last used, revoked
  keys revoke ID                 Revoke a key by id or prefix
  accounts list                  List accounts: name, created, active keys, disabled
  accounts disable NAME          Refuse every key of an account (enable NAME undoes it)
  ids advance [--by N]           Move every id sequence on by hand (a promotion does it itself)
  help [COMMAND]                 Show help, for one command when named
  --version                      Print the version

Every command reads DATABASE_URL (default ./data/petstore.db).
Run \`petstore <command> --help\` for more about one command.`,
  serve: `Usage: petstore serve

Starts the server: REST /v1, /messages, GraphQL at /graphql, docs at /v1/docs.
Applies pending migrations first. Stops cleanly on SIGTERM or SIGINT.
On the first start with an empty database (not in production) it creates account
"default" and prints its API key once.

Configured by environment variables (PORT, HOST, DATABASE_URL, LOG_LEVEL, ...);
see docs/configuration.md.`,
  migrate: `Usage: petstore migrate [--check]

Applies pending database migrations, then lists every migration by name: when
it was applied, or "applied by a newer release" for one this release does not
know (it serves on that schema: see Upgrading in docs/operations.md). Safe to
run while servers use the same database; servers also migrate when they start,
unless MIGRATE_ON_START=false.

  --check    Apply nothing: list, and exit ${EXIT_CODES.pending} when some are pending, 0 when none`,
  backup: `Usage: petstore backup PATH

Writes a consistent copy of the SQLite database to PATH, a new file, while
servers keep serving (VACUUM INTO: one snapshot, whole or nothing). Restore by
stopping the servers and putting the copy in place of the database file (see
Backup and restore in docs/operations.md). On PostgreSQL use pg_dump.`,
  keys: `Usage: petstore keys <create|list|revoke>

  keys create --account NAME     Create an API key (and the account when new)
  keys list                      List keys without the secret
  keys revoke ID                 Revoke a key by id or prefix

Run \`petstore keys <command> --help\` for more.`,
  'keys create': `Usage: petstore keys create --account NAME [--scopes LIST]

Creates an API key for account NAME, creating the account when it is new.
NAME is ${ACCOUNT_NAME_RULE}.
  --scopes LIST   What the key may do, comma-separated: ${SCOPES.join(', ')}
                  (read the store, change it, manage keys). Without it: everything.
The key is printed once, alone on the last line, and is not stored: keep it.`,
  'keys list': `Usage: petstore keys list

Lists every key: id, prefix, account, created, last used (written every ${KEY_USAGE_FLUSH_MS / 1000} s),
revoked. The secret part of a key is never stored, so it is never shown.`,
  'keys revoke': `Usage: petstore keys revoke ID

Revokes the key with this id (a number) or prefix (psk_ and 8 characters).
A running server refuses it within ${KEY_CHANGES_POLL_MS} ms. Revoking a revoked key changes nothing.`,
  ids: `Usage: petstore ids advance [--by N]

  ids advance                    Move every id sequence past anything handed out

Run \`petstore ids advance --help\` for more.`,
  'ids advance': `Usage: petstore ids advance [--by N]

PostgreSQL: moves every table's id sequence N past the larger of its own value
and the table's highest id (default 1000000), so no id a client was told is
given to another record. A promoted standby does this itself, by 1000000,
before its first insert (docs/deployment.md, Replicas and failover): run this
for a larger gap, or on a database restored by other means. An id left unused
is only a gap. SQLite has no standby: refused.

  --by N    How far past (ids the old primary could have given in the lag)`,
  accounts: `Usage: petstore accounts <list|disable|enable>

  accounts list                  List accounts with their active keys
  accounts disable NAME          Refuse every key of the account
  accounts enable NAME           Accept its unrevoked keys again

Run \`petstore accounts <command> --help\` for more.`,
  'accounts list': `Usage: petstore accounts list

Lists every account: name, created, how many unrevoked keys it holds, and
when it was disabled (- when it is not).`,
  'accounts disable': `Usage: petstore accounts disable NAME

Disables account NAME: every key of it is refused, by every running server
within ${KEY_CHANGES_POLL_MS} ms. Its keys are kept; \`accounts enable NAME\` accepts them again.
Disabling a disabled account changes nothing.`,
  'accounts enable': `Usage: petstore accounts enable NAME

Enables a disabled account again: its unrevoked keys work at once.`,
};
