import { listQuerySchema } from '../pagination/list-query-schema.ts';
import { idSchema } from '../validation/id-schema.ts';

/** Contract §2.1, exactly and case-sensitively. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

/** Contract §2.5 leaves the default open; a new pet is for sale until said otherwise. */
export const DEFAULT_PET_STATUS: PetStatus = 'available';
export const PET_NAME_MAX_LENGTH = 100;

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

export const newPetSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: PET_NAME_MAX_LENGTH, format: 'non-blank', description: "The animal's name." },
    categoryId: { ...idSchema, description: 'Identifier of the category the animal belongs to (int64, at most 2^53−1).' },
    status: { ...petStatusSchema, description: `Availability status; \`${DEFAULT_PET_STATUS}\` when omitted.` },
  },
} as const;

export const petSchema = {
  type: 'object',
  required: ['id', 'name', 'categoryId', 'status'],
  properties: {
    id: { ...idSchema, description: 'Unique identifier assigned by the service on creation.' },
    name: { type: 'string', maxLength: PET_NAME_MAX_LENGTH },
    categoryId: { ...idSchema },
    status: petStatusSchema,
  },
} as const;

export const listPetsQuerySchema = listQuerySchema('animals', petStatusSchema);

export const petIdSchema = { ...idSchema, description: 'The identifier of the animal.' } as const;
