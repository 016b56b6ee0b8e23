/**
 * The strategy registry. Adding a strategy = adding a file beside this one and a line here.
 * The order is the order the UI and the bench table show them in: the article's six first.
 */
import type { Strategy } from './types';
import { strategy as rxjsFromEvent } from './rxjs-from-event';
import { strategy as rxjsFrom } from './rxjs-from';
import { strategy as ixjsFrom } from './ixjs-from';
import { strategy as ixjsFromEvent } from './ixjs-from-event';
import { strategy as pipelineGenerator } from './pipeline-generator';
import { strategy as iteratorHelper } from './iterator-helper';
import { strategy as forAwait } from './for-await';
import { strategy as readableMap } from './readable-map';
import { strategy as webStreams } from './web-streams';
import { strategy as pipeWritable } from './pipe-writable';
import { strategy as ixjsFlatMap } from './ixjs-flat-map';
import { strategy as ixjsToArray } from './ixjs-to-array';

/** Strategy and the module (file name without extension) the child process loads for it. */
const ENTRIES: Array<[Strategy, string]> = [
  [rxjsFromEvent, 'rxjs-from-event'],
  [rxjsFrom, 'rxjs-from'],
  [ixjsFrom, 'ixjs-from'],
  [ixjsFromEvent, 'ixjs-from-event'],
  [pipelineGenerator, 'pipeline-generator'],
  [iteratorHelper, 'iterator-helper'],
  [forAwait, 'for-await'],
  [readableMap, 'readable-map'],
  [webStreams, 'web-streams'],
  [pipeWritable, 'pipe-writable'],
  [ixjsFlatMap, 'ixjs-flat-map'],
  [ixjsToArray, 'ixjs-to-array'],
];

export const STRATEGIES: readonly Strategy[] = ENTRIES.map(([s]) => s);
export const STRATEGY_IDS: readonly string[] = STRATEGIES.map((s) => s.id);
export const STRATEGY_MODULES: readonly string[] = ENTRIES.map(([, file]) => file);

/** The strategy with this id, or undefined. */
export function findStrategy(id: string): Strategy | undefined {
  return STRATEGIES.find((s) => s.id === id);
}

/** File name (no extension) of the strategy's module, which is what the child imports. */
export function strategyModule(id: string): string {
  const i = STRATEGY_IDS.indexOf(id);
  if (i < 0) throw new Error(`unknown strategy "${id}"; known: ${STRATEGY_IDS.join(', ')}`);
  return STRATEGY_MODULES[i];
}
