import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `K=V` words as an environment: the start script's `env K=V …` and the bench's `--env K=V,…`. */
export function envOf(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`expected K=V, got ${pair}`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/**
 * What `npm start` in `dir` sets (`exec [env K=V …] node <flags> bin/petstore.js serve`): its
 * environment and Node flags. The one reader of the start script, so the bench, the install test
 * and the deploy test run and compare what users run.
 */
export function startScript(dir: string): { env: Record<string, string>; flags: string[] } {
  const { scripts } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const match = /^exec (?:env ((?:[A-Z_]+=\S+ )+))?node ((?:--\S+ )*)bin\/petstore\.js serve$/.exec(scripts.start);
  if (!match) throw new Error(`cannot read the start script: ${scripts.start}`);
  const words = (text: string | undefined) => text?.trim().split(' ').filter(Boolean) ?? [];
  return { env: envOf(words(match[1])), flags: words(match[2]) };
}
