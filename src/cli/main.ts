import { runCli } from './run-cli.ts';

await runCli(process.argv.slice(2));
