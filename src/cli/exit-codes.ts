/** What `petstore` exits with, for scripts and deploy pipelines to branch on. */
export const EXIT_CODES = {
  ok: 0,
  /** Something failed: the message on stderr says what. */
  failed: 1,
  /** The command line is wrong: usage follows the message. */
  usage: 2,
  /** `migrate --check`: the database lacks migrations of this release. */
  pending: 3,
} as const;
