/**
 * Which scripts of a run's process are Stream Lab's own rather than the strategy's, by where the
 * child build puts them (server/runner/child-build.ts: child/bootstrap.mjs, labs/<lab>/child/…).
 * Top allocators (inspection.ts) and heap snapshots' largest holders (server/heap/summarize.ts)
 * label what these scripts allocate or keep. Pure, and free of imports: the heap analysis's thread
 * loads it.
 */

/**
 * The bootstrap and sampler (child/bootstrap.mjs) and each lab's child code but its strategies
 * (scenario, consumers, load). A strategy's file, its libraries (node_modules) and Node's own
 * scripts are not the harness's; neither is a strategy of yours (bundled under .build/user/).
 */
export function isHarnessScript(url: string): boolean {
  return /\/child\/bootstrap\.mjs$/.test(url) || /\/labs\/[^/]+\/child\/(?!strategies\/)[^/]+\.mjs$/.test(url);
}
