import { signUp as signUpOnce } from './sign-up.ts';
import { traced } from '../../telemetry/spans.ts';

export const { signUp } = traced('accounts', { signUp: signUpOnce });
export { listAccounts } from './list-accounts.ts';
export type { AccountSummary } from './list-accounts.ts';
export { setAccountDisabled } from './set-account-disabled.ts';
export * from './account-schema.ts';
