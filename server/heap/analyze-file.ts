/**
 * The whole analysis of one snapshot file, synchronously, in the calling thread: read, graph,
 * dominators, summary. snapshot-analysis.ts runs it in a worker thread; tests and scripts may call
 * it directly.
 */
import type { SnapshotAnalysis } from '../../lib/heap/analysis';
import { computeDominators } from './dominators';
import { buildHeapGraph } from './heap-graph';
import { readSnapshotFile } from './snapshot-reader';
import { summarize, type SummaryOptions } from './summarize';

export function analyzeSnapshotFileSync(file: string, opts: SummaryOptions = {}): SnapshotAnalysis {
  const t0 = performance.now();
  const data = readSnapshotFile(file);
  const t1 = performance.now();
  const graph = buildHeapGraph(data);
  const dom = computeDominators(graph);
  const summary = summarize(graph, dom, opts);
  return {
    nodeCount: data.nodeCount,
    edgeCount: data.edgeCount,
    fileBytes: data.fileBytes,
    ...summary,
    parseMs: Math.round(t1 - t0),
    analysisMs: Math.round(performance.now() - t1),
  };
}
