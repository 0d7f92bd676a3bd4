import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { addFormats } from '../../src/services/validation/formats.ts';
import { defaultDocuments } from '../../src/mcp/default-documents.ts';
import { petstoreSchema } from '../../src/graphql/petstore-schema.ts';
import { createApiKey } from '../../src/services/api-keys/index.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { callTool, mcp } from '../helpers/mcp.ts';

// Each tool's input schema says exactly what the API accepts: for every argument of every tool,
// a value the schema takes is taken by the API (the same operation over GraphQL is not refused
// with VALIDATION_FAILED), and a value it refuses is refused. The tools are the default ones and
// a manifest's reaching the rest (backward pages, a whole input object as one variable, keys).

type Schema = Record<string, unknown>;
interface ToolListing {
  name: string;
  inputSchema: Schema & { properties: Record<string, Schema>; required?: string[] };
}

const EXTRA = `
query back_pets($last: Int, $before: String) { pets(last: $last, before: $before) { totalCount } }
query back_orders($last: Int, $before: String, $status: OrderStatus) { orders(last: $last, before: $before, status: $status) { totalCount } }
mutation add_whole($input: NewPetInput!) { createPet(input: $input) { id } }
mutation order_whole($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }
mutation make_key($input: NewApiKeyInput) { createKey(input: $input) { id } }
mutation make_named_key($name: String, $scopes: [String!]) { createKey(input: { name: $name, scopes: $scopes }) { id } }
mutation drop_key($id: ID!) { revokeKey(id: $id) { id } }
query default_page($first: Int = 5) { pets(first: $first) { totalCount } }
`;

const ID_TEXT = /^\^\(\?:\[1-9\]/;

/** A value the schema takes, to fill the arguments a probe leaves alone. */
function sample(schema: Schema): unknown {
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null);
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (types.includes('object')) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    return Object.fromEntries(((schema.required ?? []) as string[]).map((name) => [name, sample(properties[name] ?? {})]));
  }
  if (types.includes('array')) return [sample((schema.items ?? {}) as Schema)];
  if (types.includes('integer')) return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (typeof schema.pattern === 'string') return ID_TEXT.test(schema.pattern) ? '1' : schema.pattern.startsWith('^msg_') ? 'msg_1' : 'Rex';
  if (schema.format === 'date-time') return '2026-12-01T10:00:00Z';
  return 'x';
}

/** What to try in one argument: the edges its schema states and the kinds of value a client might send. */
function probes(schema: Schema): unknown[] {
  const values: unknown[] = [null, '', ' ', 'x', 'abc', 0, 1, -1, 1.5, true, {}, [], '1', '0', '01', '-1', '1.0'];
  const numbers = [schema.minimum, schema.maximum].filter((value): value is number => typeof value === 'number');
  for (const n of numbers) values.push(n - 1, n, n + 1, String(n - 1), String(n), String(n + 1));
  values.push(2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53, '9007199254740991', '9007199254740992', '90071992547409910');
  for (const length of [schema.minLength, schema.maxLength].filter((value): value is number => typeof value === 'number'))
    values.push('a'.repeat(length), 'a'.repeat(length + 1), 'a'.repeat(Math.max(0, length - 1)));
  for (const value of (schema.enum ?? []) as unknown[]) values.push(value, typeof value === 'string' ? value.toUpperCase() : value);
  values.push('bogus', 'msg_1', 'msg_', `msg_${'1'.repeat(32)}`, `msg_${'1'.repeat(33)}`, 'x_1', ' msg_1');
  values.push('2026-12-01T10:00:00Z', '2026-12-01T10:00:00.5+01:00', '2026-12-01', '2026-02-30T00:00:00Z', 'not a date');
  const items = schema.items as Schema | undefined;
  if (items || ([] as unknown[]).concat(schema.type ?? []).includes('array')) {
    const enumerated = ((items?.enum ?? []) as unknown[]).filter((value) => value !== null);
    values.push(['bogus'], [1], [null], enumerated.slice(0, 1), [...enumerated, ...enumerated.slice(0, 1)], enumerated);
  }
  if (([] as unknown[]).concat(schema.type ?? []).includes('object')) values.push({ bogus: 1 }, sample(schema));
  return values;
}

const REFUSALS = new Set(['VALIDATION_FAILED', 'QUERY_TOO_COMPLEX']);

/** Cursors are opaque: their text is for the API to judge (a well-formed string it did not make is refused), which no schema can state. */
const OPAQUE = new Set(['after', 'before']);

describe('tool input schemas and the API', () => {
  it('every tool takes exactly the arguments the API accepts, value by value', async ({ makeApp, tmp }) => {
    const schema = petstoreSchema();
    const texts = [defaultDocuments(schema), EXTRA];
    const path = join(tmp, 'persisted-documents.json');
    const manifest = Object.fromEntries(texts.map((text) => [`sha256:${createHash('sha256').update(text).digest('hex')}`, text]));
    writeFileSync(path, JSON.stringify(manifest));
    const t = await makeApp({
      GRAPHQL_TRUSTED_DOCUMENTS: path,
      RATE_LIMIT_PER_MINUTE: '1000000',
      MESSAGE_RATE_LIMIT_PER_MINUTE: '1000000',
    });
    // The prober's key is not among the ids probed (0-2 and the bounds): revokeKey's probes must not revoke it.
    for (let i = 0; i < 9; i++) await createApiKey(t.db, 'bystander');
    const prober = { authorization: `Bearer ${(await createApiKey(t.db, 'prober')).key}` };
    const { tools } = (await mcp(t, 'tools/list', {}, { headers: prober })).body.result as { tools: ToolListing[] };
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list_pets', 'add_pet', 'make_key', 'back_orders']));
    // How an agent's client reads the schemas: JSON Schema 2020-12, strict, its formats the API's own.
    const ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true }) as never) as unknown as Ajv2020;
    const documentOf = (name: string) => texts.find((text) => new RegExp(`(query|mutation) ${name}\\b`).test(text)) ?? '';

    const mismatches: string[] = [];
    let compared = 0;
    for (const tool of tools) {
      const check = ajv.compile(tool.inputSchema);
      const base = sample(tool.inputSchema) as Record<string, unknown>;
      for (const [name, property] of Object.entries(tool.inputSchema.properties)) {
        const tried = new Set<string>();
        for (const value of [undefined, ...probes(property)]) {
          const key = JSON.stringify(value) ?? 'absent';
          if (tried.has(key)) continue;
          tried.add(key);
          const { [name]: _left, ...others } = base;
          const args = value === undefined ? others : { ...others, [name]: value };
          const schemaTakes = check(args);
          const res = await t.app.inject({
            method: 'POST',
            url: '/graphql',
            headers: { ...prober, 'content-type': 'application/json' },
            payload: { query: documentOf(tool.name), operationName: tool.name, variables: args },
          });
          const errors = (res.json().errors ?? []) as { extensions?: { code?: string }; message: string }[];
          // Refused for the value: as input, or as a page too large for the cost limit (first: 2^31−1).
          const refusal = errors.find((error) => REFUSALS.has(error.extensions?.code ?? ''));
          expect(res.statusCode, res.body).not.toBe(401);
          compared++;
          if (!refusal === schemaTakes) continue;
          if (OPAQUE.has(name) && schemaTakes && typeof value === 'string') continue;
          mismatches.push(
            `${tool.name}.${name} = ${key}: schema ${schemaTakes ? 'takes' : 'refuses'}, API ${refusal ? `refuses (${refusal.message})` : 'takes'}`,
          );
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(500);
  });

  it('states ranges, defaults and formats, never GraphQL boilerplate; a refusal reads as the API words it', async ({ t }) => {
    const { tools } = (await mcp(t, 'tools/list')).body.result as { tools: ToolListing[] };
    const byName = new Map(tools.map((tool) => [tool.name, tool.inputSchema.properties]));
    expect(byName.get('list_pets')?.first).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(byName.get('place_order')?.quantity).toMatchObject({ minimum: 1, maximum: 100, default: 1 });
    expect(byName.get('add_pet')?.categoryId).toMatchObject({ type: 'integer', minimum: 1 });
    expect(byName.get('get_pet')?.id).toMatchObject({
      type: ['string', 'integer'],
      minimum: 1,
      description: 'The identifier of the animal.',
    });
    const listing = JSON.stringify(tools);
    expect(listing).not.toContain('scalar type represents');
    expect(listing).not.toContain('int64"');
    // The words of a refusal name the rule, as GraphQL and REST do.
    const refused = await callTool(t, 'get_pet', { id: '9007199254740992' });
    expect(refused.failure?.message).toBe("Argument 'id' must be an integer from 1 to 9007199254740991 written in plain decimal digits.");
    const status = await callTool(t, 'list_pets', { status: 'lost' });
    expect(status.failure?.message).toBe("Argument 'status' must be one of: available, pending, sold, null.");
  });
});
