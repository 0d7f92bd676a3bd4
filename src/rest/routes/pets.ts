import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { createPet, getPet, listPets, listPetsQuerySchema, petIdSchema, petsListing } from '../../services/pets/index.ts';
import type { ListPetsQuery } from '../../services/pets/index.ts';
import { requestNaming } from '../../http/errors/field-naming.ts';
import { decidedListing } from '../decided-listing.ts';
import { nextLink } from '../next-link.ts';
import { requestDb } from '../../http/idempotency/idempotency-hooks.ts';
import type { IdempotencyHooks } from '../../http/idempotency/idempotency-hooks.ts';
import { bearerSecurity, createdResponse, errorResponses, IDEMPOTENT, JSON_BODY, KEYED, pageResponse, ref, validated } from '../schemas.ts';
import { readDb } from '../../http/read-routing.ts';

export interface PetsRoutesOptions {
  db: Kysely<Database>;
  idempotent: IdempotencyHooks;
  /** What Link headers start with: the public base URL, or `/v1` for links relative to the request's host. */
  linkBase: string;
}

// Contract §4.3 and §9: deprecated, removal on 5 December 2030, replaced by GET /pets?status=.
const DEPRECATED_SINCE = '@1795305600'; // 2026-11-22T00:00:00Z, RFC 9745
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT'; // RFC 8594

const listing = decidedListing(petsListing);

export const petsRoutes: FastifyPluginAsync<PetsRoutesOptions> = async (app, { db, linkBase, idempotent }) => {
  app.get<{ Querystring: ListPetsQuery }>(
    '/pets',
    {
      config: { validators: { tables: ['pets'], perAccount: false }, largeAnswers: true },
      preHandler: listing.preHandler,
      schema: {
        operationId: 'listPets',
        summary: 'List animals',
        description:
          'Pets in ascending id order. When more follow, the response carries `Link: <…&cursor=…>; rel="next"` (RFC 8288); follow it for the next page.',
        tags: ['pets'],
        security: bearerSecurity,
        querystring: listPetsQuerySchema,
        response: {
          ...validated(pageResponse('Pet', 'A page of pets.')),
          ...errorResponses('VALIDATION_FAILED', 'INVALID_CURSOR', ...KEYED),
        },
      },
    },
    async (request, reply) => {
      const page = await listPets(await readDb(request, db), listing.of(request));
      const link = nextLink(`${linkBase}/pets`, request.query, page.nextCursor);
      if (link) reply.header('Link', link);
      return page.items;
    },
  );

  app.post(
    '/pets',
    {
      ...idempotent,
      schema: {
        operationId: 'createPet',
        summary: 'Add an animal',
        tags: ['pets'],
        security: bearerSecurity,
        body: ref('NewPet'),
        response: {
          201: createdResponse('Pet', 'The created pet.'),
          ...errorResponses(...JSON_BODY, ...KEYED, ...IDEMPOTENT),
        },
      },
    },
    async (request, reply) => {
      const pet = await createPet(requestDb(request, db), request.body);
      return reply.code(201).header('Location', `${linkBase}/pets/${pet.id}`).send(pet);
    },
  );

  app.get<{ Params: { petId: number } }>(
    '/pets/:petId',
    {
      config: { validators: { fromBody: true } },
      schema: {
        operationId: 'getPet',
        summary: 'Get an animal (deprecated: removed on 2030-12-05; use GET /pets with the status filter)',
        tags: ['pets'],
        deprecated: true,
        security: bearerSecurity,
        params: { type: 'object', required: ['petId'], properties: { petId: petIdSchema } },
        response: {
          ...validated({ description: 'The pet.', ...ref('Pet') }),
          ...errorResponses('VALIDATION_FAILED', ...KEYED, 'PET_NOT_FOUND'),
        },
      },
      // onSend runs for every answer of this route, errors included, so even a 401 says it is deprecated.
      onSend: async (_request, reply, payload) => {
        reply.header('Deprecation', DEPRECATED_SINCE);
        reply.header('Sunset', SUNSET);
        reply.header('Link', `<${linkBase}/pets>; rel="successor-version"`);
        return payload;
      },
    },
    async (request) => getPet(await readDb(request, db), request.params.petId, requestNaming('params')),
  );
};
