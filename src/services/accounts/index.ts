export { signUp } from './sign-up.ts';
export { listAccounts } from './list-accounts.ts';
export type { AccountSummary } from './list-accounts.ts';
export { setAccountDisabled } from './set-account-disabled.ts';
export * from './account-schema.ts';
