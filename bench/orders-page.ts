// The page of 100 orders, with and without their pets (Order.pet, batched per operation): the
// requests, run fresh (`Cache-Control: no-cache`), and the orders they read, placed on a server.
import { gqlRun } from './bench-load.ts';
import type { Request, Status } from './bench-load.ts';

interface OrdersPageScenario {
  name: string;
  project: Request;
  expectStatus: Status;
}

export const ordersPage = {
  bare: {
    name: 'GraphQL orders(first: 100)',
    project: gqlRun('{ orders(first: 100) { nodes { id status petId } } }'),
    expectStatus: 2,
  } satisfies OrdersPageScenario,
  withPets: {
    name: 'GraphQL orders(first: 100) with pets',
    project: gqlRun('{ orders(first: 100) { nodes { id status pet { id name status } } } }'),
    expectStatus: 2,
  } satisfies OrdersPageScenario,
  /** 100 orders, of every third pet, placed one at a time as a client would. */
  async place(origin: string, key: string): Promise<void> {
    for (let i = 1; i <= 100; i++) {
      const response = await fetch(`${origin}/v1/store/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ petId: i * 3 }),
      });
      if (response.status !== 201) throw new Error(`placing an order answered ${response.status}: ${await response.text()}`);
    }
  },
};
