// Validates Kubernetes manifests offline, with the Kubernetes API's own OpenAPI schemas as the
// npm package kubernetes-models compiles them (types, required fields, enumerations): what
// `npm test` checks deploy/kubernetes/ with, for any manifest an operator changed or wrote.
//   npm run check:kubernetes                              # deploy/kubernetes/*.yaml
//   npm run check:kubernetes -- my-overlay/petstore.yaml  # files of your own
// Like the API server's, these schemas let unknown fields through: a misspelt optional field is
// not caught here (kubectl apply --dry-run=server against a cluster catches more).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';

export type Manifest = Record<string, unknown> & { apiVersion: string; kind: string };

/** The documents of a YAML file, as objects. */
export function readManifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => doc.toJS() as Manifest);
}

/** Throws, naming the path, where a manifest breaks its kind's schema; a kind this does not know is an error too. */
export function validateManifest(manifest: Manifest): void {
  const key = `${manifest.apiVersion} ${manifest.kind}`;
  if (key === 'apps/v1 Deployment') return new Deployment(manifest as never).validate();
  if (key === 'v1 Service') return new Service(manifest as never).validate();
  if (key === 'v1 PersistentVolumeClaim') return new PersistentVolumeClaim(manifest as never).validate();
  if (key === 'networking.k8s.io/v1 NetworkPolicy') return new NetworkPolicy(manifest as never).validate();
  throw new Error(`no schema here for ${key}: add one to deploy/kubernetes/validate.ts`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const files = process.argv.slice(2);
  const checked =
    files.length > 0
      ? files
      : readdirSync(here)
          .filter((name) => name.endsWith('.yaml'))
          .map((name) => join(here, name));
  let failed = 0;
  for (const file of checked) {
    for (const manifest of readManifests(file)) {
      const name = `${file}: ${manifest.kind} ${String((manifest.metadata as { name?: unknown } | undefined)?.name ?? '')}`;
      try {
        validateManifest(manifest);
        process.stdout.write(`ok      ${name}\n`);
      } catch (error) {
        failed++;
        process.stdout.write(`invalid ${name}\n        ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}
