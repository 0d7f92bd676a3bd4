import { describe, expect, it } from '../helpers/fixtures.ts';
import { latestCode } from '../../bench/latest-code.ts';

// The on-CPU profile names a sample after the code that last held its address (bench/latest-code.ts).

describe("the profile's symbol map", () => {
  it('keeps, of code whose addresses were reused, only what came last; what never overlapped stays, in order', () => {
    const map = [
      '7f0000001000 100 JS:*optimizeNodes ajv/dist/compile/codegen/index.js:205:18',
      '7f0000002000 40 JS:*keep /a.js:1:1',
      '7f0000003000 80 JS:~stale /b.js:2:2',
      // Reuses the end of the first range, up to where the second starts (sizes are hexadecimal).
      '7f0000001080 f80 JS:*onSend fastify/lib/reply.js:599:20',
      // Ends where the first began; and one inside the third.
      '7f0000000f00 100 JS:*before /c.js:3:3',
      '7f0000003040 10 JS:*later /d.js:4:4',
      '',
    ].join('\n');
    expect(latestCode(map).split('\n')).toEqual([
      '7f0000002000 40 JS:*keep /a.js:1:1',
      '7f0000001080 f80 JS:*onSend fastify/lib/reply.js:599:20',
      '7f0000000f00 100 JS:*before /c.js:3:3',
      '7f0000003040 10 JS:*later /d.js:4:4',
      '',
    ]);
  });
});
