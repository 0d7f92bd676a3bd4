import { API_KEY_LENGTH, API_KEY_PATTERN, KEY_PREFIX_LENGTH, KEY_PREFIX_PATTERN } from './key-format.ts';
import { idSchema, timestampSchema } from '../validation/id-schema.ts';
import { SCOPES } from '../access-tokens/scopes.ts';
import type { Scope } from '../access-tokens/scopes.ts';

/** Unrevoked keys one account may hold at once; the operator's CLI is not bound by it. */
export const ACTIVE_KEYS_PER_ACCOUNT = 10;
export const KEY_NAME_MAX_LENGTH = 64;

/** A key as its owner sees it: everything but the secret, which is not stored. */
export interface ApiKey {
  id: number;
  prefix: string;
  name: string | null;
  /** What the key may do; null: everything. */
  scopes: Scope[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A key just made: the one answer that carries the secret. */
export interface NewApiKeyWithSecret extends ApiKey {
  key: string;
}

export interface NewApiKeyInput {
  name?: string;
  scopes?: Scope[];
}

const scopesSchema = { type: 'array', items: { type: 'string', enum: [...SCOPES] }, uniqueItems: true, maxItems: SCOPES.length } as const;

export const newApiKeySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: KEY_NAME_MAX_LENGTH,
      format: 'non-blank',
      description: 'What you call the key (for example where it is used); optional.',
    },
    scopes: {
      ...scopesSchema,
      minItems: 1,
      description: `What the key may do (${SCOPES.join(', ')}); optional. Without it, what the credential making it may do. A key cannot be given a scope that credential lacks.`,
    },
  },
} as const;

const apiKeyProperties = {
  id: { ...idSchema, description: 'Identifier of the key: what DELETE /v1/keys/{keyId} takes.' },
  prefix: {
    type: 'string',
    minLength: KEY_PREFIX_LENGTH,
    maxLength: KEY_PREFIX_LENGTH,
    pattern: KEY_PREFIX_PATTERN.source,
    description: 'The public start of the key (`psk_` and 8 characters), to recognise it.',
  },
  name: { type: ['string', 'null'], maxLength: KEY_NAME_MAX_LENGTH, description: 'What the owner calls the key.' },
  scopes: { ...scopesSchema, type: ['array', 'null'], description: 'What the key may do; null: everything.' },
  createdAt: { ...timestampSchema, description: 'ISO 8601 UTC timestamp.' },
  lastUsedAt: { ...timestampSchema, type: ['string', 'null'], description: 'Last accepted use, written every 10 s; null if never.' },
  revokedAt: { ...timestampSchema, type: ['string', 'null'], description: 'When it was revoked; null while it works.' },
} as const;
const apiKeyRequired = ['id', 'prefix', 'name', 'scopes', 'createdAt', 'lastUsedAt', 'revokedAt'] as const;

export const apiKeySchema = { type: 'object', required: [...apiKeyRequired], properties: apiKeyProperties } as const;

export const newApiKeyWithSecretSchema = {
  type: 'object',
  required: [...apiKeyRequired, 'key'],
  properties: {
    ...apiKeyProperties,
    key: {
      type: 'string',
      minLength: API_KEY_LENGTH,
      maxLength: API_KEY_LENGTH,
      pattern: API_KEY_PATTERN.source,
      description: 'The key itself, `psk_` and 40 characters. Shown in this answer only: it is not stored.',
    },
  },
} as const;

export const keyIdSchema = { ...idSchema, description: 'A key id, from GET /v1/keys.' } as const;
