#!/usr/bin/env node
// The program is TypeScript run through tsx's loader: no build step, so `npm ci` is the whole install.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/run-cli.ts');
await runCli(process.argv.slice(2));
