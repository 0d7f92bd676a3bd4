// `npm run build`'s last step (as dist/config/write-build-info.js): records which source revision
// dist/ was compiled from, for a build that runs where no git checkout is (a pruned install, an image).
import { writeFileSync } from 'node:fs';
import { sourceRevision } from './source-revision.ts';

writeFileSync(new URL('../build-info.json', import.meta.url), `${JSON.stringify({ revision: sourceRevision() ?? 'unknown' })}\n`);
