import { PAGE_SIZE } from '../pagination/keyset-page.ts';

/** Contract §2.1, exactly and case-sensitively. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

/** Contract §2.5 leaves the default open; a new pet is for sale until said otherwise. */
export const DEFAULT_PET_STATUS: PetStatus = 'available';
export const PET_NAME_MAX_LENGTH = 100;
/** int64 in the contract, but a JSON number is exact only up to 2^53−1; larger ids are refused, never rounded. */
export const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER;

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: PetStatus;
}

export interface NewPet {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

export interface ListPetsQuery {
  limit?: number;
  status?: PetStatus;
  cursor?: string;
}

// These schemas are the rules. The service validates with them and REST hands the
// same objects to Fastify (validation and the OpenAPI document), so the two cannot drift.

export const petStatusSchema = {
  type: 'string',
  enum: [...PET_STATUSES],
  description: 'Availability status.',
} as const;

const idSchema = { type: 'integer', minimum: 1, maximum: MAX_SAFE_ID } as const;

export const newPetSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: PET_NAME_MAX_LENGTH, pattern: '\\S', description: "The animal's name." },
    categoryId: { ...idSchema, description: 'Identifier of the category the animal belongs to (int64, at most 2^53−1).' },
    status: { ...petStatusSchema, description: `Availability status; \`${DEFAULT_PET_STATUS}\` when omitted.` },
  },
} as const;

export const petSchema = {
  type: 'object',
  required: ['id', 'name', 'categoryId', 'status'],
  properties: {
    id: { ...idSchema, description: 'Unique identifier assigned by the service on creation.' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: petStatusSchema,
  },
} as const;

export const listPetsQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: {
      type: 'integer',
      minimum: PAGE_SIZE.min,
      maximum: PAGE_SIZE.max,
      default: PAGE_SIZE.default,
      description: 'Maximum number of animals returned.',
    },
    status: { ...petStatusSchema, description: 'Filters animals by availability status.' },
    cursor: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'Opaque cursor from the `Link: rel="next"` header of the previous page.',
    },
  },
} as const;

export const petIdSchema = { ...idSchema, description: 'The identifier of the animal.' } as const;
