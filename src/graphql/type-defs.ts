import { readdirSync, readFileSync } from 'node:fs';

const schemaDir = new URL('../../schema/', import.meta.url);

/** The SDL files in schema/, the source of truth for both the server and codegen. */
export function loadTypeDefs(): string[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(new URL(file, schemaDir), 'utf8'));
}
