export const USAGE = `Usage: petstore <command>

Commands:
  serve                          Start the server (what \`npm start\` runs)
  migrate                        Apply pending database migrations
  keys create --account NAME     Create an API key (and the account when new); the key is the last line
  keys list                      List keys: id, prefix, account, created, last used, revoked
  keys revoke ID                 Revoke a key by id or prefix
  help                           Show this help

Every command reads DATABASE_URL (default ./data/petstore.db).`;
