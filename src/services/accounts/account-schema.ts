import { ACCOUNT_NAME_MAX_LENGTH, ACCOUNT_NAME_RULE } from '../api-keys/key-format.ts';
import { newApiKeyWithSecretSchema } from '../api-keys/api-key-schema.ts';
import type { NewApiKeyWithSecret } from '../api-keys/api-key-schema.ts';
import { timestampSchema } from '../validation/id-schema.ts';

export interface SignUpInput {
  account: string;
}

export interface SignedUp {
  account: { name: string; createdAt: string };
  /** The account's first key: shown in this answer only. */
  apiKey: NewApiKeyWithSecret;
}

export const signUpSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['account'],
  properties: {
    account: { type: 'string', format: 'account-name', description: `The account name: ${ACCOUNT_NAME_RULE}.` },
  },
} as const;

export const signedUpSchema = {
  type: 'object',
  required: ['account', 'apiKey'],
  properties: {
    account: {
      type: 'object',
      required: ['name', 'createdAt'],
      properties: {
        name: { type: 'string', maxLength: ACCOUNT_NAME_MAX_LENGTH, description: 'The account name.' },
        createdAt: { ...timestampSchema, description: 'ISO 8601 UTC timestamp.' },
      },
    },
    apiKey: { ...newApiKeyWithSecretSchema, description: "The account's first key; `key` is shown in this answer only." },
  },
} as const;
