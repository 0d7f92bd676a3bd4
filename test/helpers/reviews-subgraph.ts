import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Plugin } from 'graphql-yoga';

/**
 * A second subgraph as another team would write one: reviews of the store's pets, keyed by
 * `Pet.id`, for composing and querying a supergraph with this server in it.
 */
export const REVIEWS_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key"])

  type Pet @key(fields: "id") {
    id: ID!
    reviews: [Review!]!
  }

  type Review {
    stars: Int!
    body: String!
  }

  type Query {
    "The best reviewed pets: references the petstore subgraph resolves."
    topPets: [Pet!]!
  }
`;

/** The ids topPets names, best first. */
export const TOP_PETS = ['2', '1', '3'];

/** Reviews by pet id; a pet without any has []. */
export const REVIEWS: Record<string, { stars: number; body: string }[]> = {
  '1': [{ stars: 5, body: 'Rex fetches everything.' }],
  '2': [
    { stars: 4, body: 'Tom purrs.' },
    { stars: 2, body: 'Tom scratched the sofa.' },
  ],
};

/** Notes the ids of each batch of references a gateway sends. */
function recordBatches(batches: string[][]): Plugin {
  return {
    onExecute({ args }) {
      const representations = (args.variableValues as { representations?: { id: string }[] } | undefined)?.representations;
      if (representations) batches.push(representations.map((r) => r.id));
    },
  };
}

export interface ReviewsSubgraph {
  url: string;
  /** The references of Pet the gateway asked about, batch by batch. */
  batches: string[][];
  close(): Promise<void>;
}

/** The reviews subgraph on loopback (Yoga over @apollo/subgraph), until closed. */
export async function startReviewsSubgraph(): Promise<ReviewsSubgraph> {
  const batches: string[][] = [];
  const schema = buildSubgraphSchema([
    {
      typeDefs: parse(REVIEWS_SDL),
      resolvers: {
        Query: { topPets: () => TOP_PETS.map((id) => ({ id })) },
        Pet: {
          __resolveReference: (reference: { id: string }) => reference,
          reviews: (pet: { id: string }) => REVIEWS[pet.id] ?? [],
        },
      } as never,
    },
  ]);
  const yoga = createYoga({
    schema,
    logging: false,
    graphiql: false,
    plugins: [recordBatches(batches)],
  });
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    batches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
