import { describe, expect } from '../helpers/fixtures.ts';
import { total } from '../helpers/exposition.ts';
import { browserIt as it } from '../helpers/browser.ts';

const PRODUCTION = 'https://api.example.test/v1';
const STAGING = 'https://staging.api.example.test/v1';
it.override('appEnv', { PRODUCTION_BASE_URL: PRODUCTION, STAGING_BASE_URL: STAGING, METRICS_PORT: '0' });

let origin: string;
it.beforeAll(async ({ t }) => {
  origin = await t.listen();
  await t.call({ method: 'POST', url: '/v1/pets', payload: { name: 'Browser Rex', categoryId: 5 } });
});

describe('GraphiQL in a real browser', () => {
  it('opens, takes the Authorization header, runs the pets query and shows the result', async ({ t, browser }) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const offsite: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !/^(data|blob):/.test(request.url())) offsite.push(request.url());
    });

    await page.goto(`${origin}/graphql`);
    await page.getByRole('button', { name: 'Headers' }).click();
    await page.locator('.graphiql-editor-tool .monaco-editor').last().click();
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${t.key}` }));
    await page.getByRole('button', { name: /Execute query/ }).click();
    await page.getByRole('menuitem', { name: 'ListPets' }).click();

    const result = page.locator('.result-window');
    await result.getByText('Browser Rex').waitFor({ timeout: 60_000 });
    // Monaco renders spaces as no-break spaces.
    const text = (await result.innerText()).replaceAll('\u00a0', ' ');
    expect(text).toMatch(/"totalCount": 1/);
    expect(text).toMatch(/"status": "available"/);
    expect(text).not.toMatch(/"errors"/);
    expect(offsite).toEqual([]);
  }, 180_000);

  it('is cheap to revisit after running a query: the browser fetches the small page again, never the editor', async ({ t, browser }) => {
    const requestsTo = async (route: string) =>
      total(await t.scrape(), 'http_server_request_duration_seconds_count', { http_route: route, http_request_method: 'GET' });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const [pagesBefore, assetsBefore] = [await requestsTo('/graphql'), await requestsTo('/graphql/assets/{name}')];
    await page.goto(`${origin}/graphql`);
    await page.getByRole('button', { name: /Execute query/ }).waitFor({ timeout: 60_000 });
    const assetsLoaded = (await requestsTo('/graphql/assets/{name}')) - assetsBefore;
    expect(assetsLoaded).toBeGreaterThanOrEqual(2);
    // A query POSTed to /graphql, as GraphiQL sends it: browsers drop their copy of /graphql on that.
    const answered = await page.evaluate(async (key) => {
      const res = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: '{ pets { totalCount } }' }),
      });
      return res.status;
    }, t.key);
    expect(answered).toBe(200);
    await page.goto(`${origin}/graphql`);
    await page.getByRole('button', { name: /Execute query/ }).waitFor({ timeout: 60_000 });
    // The page twice; its assets once: the second visit took them from the browser's cache.
    expect((await requestsTo('/graphql')) - pagesBefore).toBeGreaterThanOrEqual(2);
    expect((await requestsTo('/graphql/assets/{name}')) - assetsBefore).toBe(assetsLoaded);
  }, 180_000);

  it('shows the REST docs (Swagger UI) under their Content-Security-Policy', async ({ browser }) => {
    const page = await browser.newPage();
    const blocked: string[] = [];
    const fetched: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(`${origin}/v1/docs/`);
    await page.getByText('/pets/{petId}').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('.info .title').innerText()).toMatch(/^Petstore Gateway/);
    expect(blocked).toEqual([]);
    // The top bar names the document's one address (the one docs/ give), and the logo is ours.
    expect(await page.locator('.topbar select option').allInnerTexts()).toEqual(['Petstore Gateway: /v1/openapi.json']);
    expect(fetched).toContain('/v1/openapi.json');
    expect(fetched).not.toContain('/v1/docs/json');
    const logo = await page.locator('.topbar a img').getAttribute('src');
    expect(Buffer.from(logo?.split(',')[1] ?? '', 'base64').toString()).toMatch(/>Petstore Gateway</);
    // Every group has operations: with sign-up off there is no "accounts" group.
    const groups = await page.locator('.opblock-tag').allInnerTexts();
    expect(groups.map((g) => g.split(/\s/)[0])).toEqual(['pets', 'store', 'messages', 'keys', 'health']);
  }, 180_000);

  it('offers this server, production and staging in the server list of the docs page (contract §4)', async ({ browser }) => {
    const page = await browser.newPage();
    await page.goto(`${origin}/v1/docs/`);
    const servers = page.locator('.servers select');
    await servers.waitFor({ timeout: 60_000 });
    const options = await servers.locator('option').allInnerTexts();
    expect(options.map((text) => text.split(' ')[0])).toEqual(['/v1', PRODUCTION, STAGING]);
    expect(options.join('\n')).toMatch(/Production/);
    expect(options.join('\n')).toMatch(/Staging/);
  }, 180_000);

  it('disables the test panel of GET /store/orders only (contract §4.5)', async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${origin}/v1/docs/`);
    const operation = (id: string) => page.locator(`#operations-${id}`);
    for (const id of ['store-listStoreOrders', 'pets-listPets', 'store-placeStoreOrder']) {
      await operation(id).locator('.opblock-summary').first().click();
      await operation(id).locator('.opblock-body').waitFor({ timeout: 60_000 });
    }
    expect(await operation('pets-listPets').getByRole('button', { name: 'Try it out' }).count()).toBe(1);
    expect(await operation('store-placeStoreOrder').getByRole('button', { name: 'Try it out' }).count()).toBe(1);
    expect(await operation('store-listStoreOrders').getByRole('button', { name: 'Try it out' }).count()).toBe(0);
    expect(await operation('store-listStoreOrders').getByRole('button', { name: 'Execute' }).count()).toBe(0);
    // The operation is still documented: its parameters are listed.
    expect(await operation('store-listStoreOrders').getByText('limit').count()).toBeGreaterThan(0);
  }, 180_000);
});
