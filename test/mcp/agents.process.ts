import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from '../helpers/fixtures.ts';
import { connectSdk } from '../helpers/mcp.ts';
import { ENGINE } from '../helpers/test-database.ts';

// An MCP server as agents meet it: docs/mcp.md's connection blocks, pasted as written against a
// running server, and the official conformance suite. The Inspector and the conformance suite
// need Node 22 or newer: they run on the one .ci/with-node provides.

const root = fileURLToPath(new URL('../../', import.meta.url));
const withNode22 = join(root, '.ci/with-node');
const KEY = /psk_[A-Za-z0-9]{40}/;
const manual = readFileSync(join(root, 'docs/mcp.md'), 'utf8');
const blocks = (lang: string) => [...manual.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1] ?? '');

/** Runs `script` in bash on Node 22; its output, once it ends. */
function bash(script: string, cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(withNode22, ['22', 'bash', '-c', script], { cwd, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/**
 * A loopback forwarder that adds the bearer credential, Host and Origin passed through: the
 * conformance suite connects without credentials (it has no option for one), and this server
 * answers nothing without one.
 */
async function withCredential(origin: string, authorization: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(origin);
  const server = createServer((req, res) => {
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, authorization } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/mcp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// On SQLite only: what a client sees of /mcp does not depend on the engine (test/mcp and the
// matrix run on both), and most of this file's minute is npx fetching the clients.
describe.runIf(ENGINE === 'sqlite')('docs/mcp.md, pasted as written', { timeout: 300_000 }, () => {
  it('the Inspector CLI lists the tools and adds a pet', async ({ databaseUrl, serve, tmp }) => {
    const server = await serve({ DATABASE_URL: databaseUrl });
    const key = KEY.exec(server.output())?.[0] ?? '';
    const script = (blocks('sh')[0] ?? '')
      .replace(/^export KEY=psk_….*$/m, `export KEY=${key}`)
      .replaceAll('http://localhost:4000', server.origin);
    const { code, out } = await bash(script, tmp);
    expect(code, out).toBe(0);
    for (const tool of ['list_pets', 'get_pet', 'add_pet', 'send_message', 'list_orders']) expect(out).toContain(`"name": "${tool}"`);
    expect(out).toContain(
      '"structuredContent": {\n    "createPet": {\n      "id": "1",\n      "name": "Rex",\n      "categoryId": 3,\n      "status": "available"',
    );
  });

  it('the Claude Desktop entry, started as Claude Desktop starts it, and the VS Code and Cursor entries’ URL and header', async ({
    databaseUrl,
    serve,
  }) => {
    const server = await serve({ DATABASE_URL: databaseUrl });
    const key = KEY.exec(server.output())?.[0] ?? '';
    const [claude, vscode, cursor] = blocks('json').map(
      (text) => JSON.parse(text.replaceAll('http://localhost:4000', server.origin)) as unknown,
    );
    // Claude Desktop: the command, its arguments and its environment, spoken to over stdio.
    const entry = (claude as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> }).mcpServers
      .petstore;
    if (!entry) throw new Error('no petstore entry in the Claude Desktop block');
    const env = Object.fromEntries(Object.entries(entry.env).map(([name, value]) => [name, value.replace('psk_…', key)]));
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'ignore',
    });
    const claudeLike = new Client({ name: 'claude-desktop-like', version: '1.0.0' });
    await claudeLike.connect(transport);
    try {
      expect((await claudeLike.listTools()).tools.map((tool) => tool.name)).toContain('add_pet');
      expect(await claudeLike.callTool({ name: 'add_pet', arguments: { name: 'Claude', categoryId: 1 } })).toMatchObject({
        structuredContent: { createPet: { name: 'Claude' } },
      });
    } finally {
      await claudeLike.close();
    }
    // VS Code and Cursor: their URL and header, variables filled in as they fill them.
    const code = (vscode as { servers: Record<string, { type: string; url: string; headers: Record<string, string> }> }).servers.petstore;
    const cur = (cursor as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> }).mcpServers.petstore;
    expect(code?.type).toBe('http');
    for (const [url, headers] of [
      [code?.url ?? '', { Authorization: (code?.headers.Authorization ?? '').replace('${input:petstore-key}', key) }],
      [cur?.url ?? '', { Authorization: (cur?.headers.Authorization ?? '').replace('${env:PETSTORE_KEY}', key) }],
    ] as const) {
      const client = await connectSdk('SDK 1.x', url, headers);
      expect((await client.listTools()).tools).toHaveLength(9);
      await client.close();
    }
  });
});

describe.runIf(ENGINE === 'sqlite')('the manifest reloaded on SIGHUP, as systemctl reload sends it', { timeout: 120_000 }, () => {
  it('reads the file again, logs it, and lists the new tools; a broken file is refused and the server keeps serving', async ({
    databaseUrl,
    serve,
    tmp,
  }) => {
    const path = join(tmp, 'persisted-documents.json');
    const manifest = (texts: string[]) =>
      JSON.stringify(Object.fromEntries(texts.map((text) => [`sha256:${createHash('sha256').update(text).digest('hex')}`, text])));
    const first = 'query First { pets(first: 1) { totalCount } }';
    writeFileSync(path, manifest([first]));
    const server = await serve({ DATABASE_URL: databaseUrl, GRAPHQL_TRUSTED_DOCUMENTS: path, LOG_LEVEL: 'info' });
    const key = server.output().match(/psk_[A-Za-z0-9_-]+/)?.[0] ?? '';
    const client = await connectSdk('SDK 1.x', `${server.origin}/mcp`, { authorization: `Bearer ${key}` });
    try {
      const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
      expect(await names()).toEqual(['First']);
      writeFileSync(path, manifest([first, 'query Second { orders { totalCount } }']));
      server.process.kill('SIGHUP');
      await expect.poll(names, { timeout: 10_000 }).toEqual(['First', 'Second']);
      // Log lines reach stdout in batches.
      await expect.poll(() => server.stdout(), { timeout: 10_000 }).toContain('SIGHUP: reading the trusted-document manifest again');
      await expect.poll(() => server.stdout(), { timeout: 10_000 }).toContain('trusted documents: the manifest was reloaded');
      writeFileSync(path, 'not json');
      server.process.kill('SIGHUP');
      await expect
        .poll(() => server.stdout(), { timeout: 10_000 })
        .toContain('the manifest changed but is refused, the one in use is kept');
      expect(await names()).toEqual(['First', 'Second']);
    } finally {
      await client.close();
    }
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});

describe.runIf(ENGINE === 'sqlite')('@modelcontextprotocol/conformance (the official suite), on Node 22', { timeout: 600_000 }, () => {
  it('passes every scenario that applies to a server with its own tools; the rest are listed, with why, in its baseline', async ({
    databaseUrl,
    serve,
    tmp,
  }) => {
    const server = await serve({ DATABASE_URL: databaseUrl });
    const key = KEY.exec(server.output())?.[0] ?? '';
    const proxy = await withCredential(server.origin, `Bearer ${key}`);
    try {
      const baseline = join(root, 'test/mcp/conformance-baseline.yml');
      writeFileSync(join(tmp, 'package.json'), '{}');
      const { code, out } = await bash(
        `npx -y @modelcontextprotocol/conformance@0.1.16 server --url ${proxy.url} --expected-failures ${baseline} -o ${join(tmp, 'results')}`,
        tmp,
      );
      const summary = out.slice(out.indexOf('=== SUMMARY ==='));
      expect(code, out.slice(-6000)).toBe(0);
      for (const scenario of ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']) {
        expect(summary).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
      }
    } finally {
      await proxy.close();
    }
  });
});
