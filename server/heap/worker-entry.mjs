// The worker thread's entry: plain JavaScript, so it starts the same under every host. The host
// may be vitest (its own module runner, which a worker does not inherit), `node --import tsx`
// (execArgv, which a worker would inherit) or `npm start` (tsx registered in-process with
// register(), which a worker does not inherit). So snapshot-analysis.ts starts the worker with an
// empty execArgv and this file loads the TypeScript body through tsx's scoped tsImport: ~0.3–0.5 s
// and ~40 MB once per analysis, small beside parsing a snapshot.
import { tsImport } from 'tsx/esm/api';

await tsImport('./snapshot-worker.ts', import.meta.url);
