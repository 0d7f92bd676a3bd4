/** The cluster test's findings as a Markdown table, the same one docs/deployment.md shows. */
export function printTable(rows: [string, string][]): void {
  const width = Math.max(5, ...rows.map(([check]) => check.length));
  const lines = [
    `| ${'check'.padEnd(width)} | result`,
    `| ${'-'.repeat(width)} | ---`,
    ...rows.map(([c, r]) => `| ${c.padEnd(width)} | ${r}`),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}
