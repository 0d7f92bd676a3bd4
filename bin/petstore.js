#!/usr/bin/env node
// The CLI runs the TypeScript sources through tsx's loader: no build step, always current.
// `npm start` runs the compiled build instead (the loader costs ~57 MB of memory).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
