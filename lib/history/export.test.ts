import { describe, expect, it } from 'vitest';
import { parseMarkdownTable, summariesToCsv, summariesToMarkdown } from './export';
import { MB_NOTE } from '../readouts/format';
import { RECORD_FORMAT, type RunRecord } from '.';
import { DEFAULT_MODE } from '../readouts/verdict.fixtures';

/** A stored record around the recorded ixjs-from run (16 MiB, 2 ms per chunk) of verdict.fixtures. */
function record(over: Partial<RunRecord['run']> = {}): RunRecord {
  const summary = { ...DEFAULT_MODE.ixjsFrom, eventLoopDelayMs: { p50: 0.362879, p99: 15.362431, max: 21.293439 }, gc: { count: 9, totalMs: 27.831 } };
  return {
    format: RECORD_FORMAT,
    run: {
      lab: 'streams',
      id: 'r-0000000001',
      experimentId: 'e1',
      strategy: 'ixjs-from',
      params: summary.params,
      status: 'completed',
      queuedAt: 1_700_000_000_000,
      startedAt: 1_700_000_000_100,
      pid: null,
      fileBytes: summary.fileBytes,
      summary,
      ...over,
    },
    experiment: null,
    versions: { node: '20.20.2', library: { name: 'ix', version: '7.0.0' } },
    recordedAt: 1_700_000_000_000,
    endedAt: 1_700_000_001_000,
    observed: null,
    notes: [],
  };
}

describe('summary CSV', () => {
  it('carries the event-loop delay and GC figures of the summary', () => {
    const [header, row] = summariesToCsv([record()]).trim().split('\n').map((l) => l.split(','));
    const col = (name: string) => row[header.indexOf(name)];
    expect(['eventLoopDelayP50Ms', 'eventLoopDelayP99Ms', 'eventLoopDelayMaxMs', 'gcCount', 'gcTotalMs', 'peakInFlight'].map(col)).toEqual([
      '0.362879',
      '15.362431',
      '21.293439',
      '9',
      '27.831',
      '1',
    ]);
  });

  it('leaves them empty for an interrupted run, which has no summary', () => {
    const [header, row] = summariesToCsv([record({ status: 'interrupted', summary: null })]).trim().split('\n').map((l) => l.split(','));
    expect(row[header.indexOf('gcCount')]).toBe('');
    expect(row[header.indexOf('eventLoopDelayMaxMs')]).toBe('');
  });
});

describe('summary Markdown', () => {
  it('says once, above the table, that MB means MiB, and still parses back', () => {
    const md = summariesToMarkdown([record()], { 'ixjs-from': 'IxJS from + concatMap' });
    expect(md.split('\n')[0]).toBe(MB_NOTE);
    const table = parseMarkdownTable(md);
    expect(table[1].slice(0, 3)).toEqual(['IxJS from + concatMap', 'completed', '16']);
  });
});
