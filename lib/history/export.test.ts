import { describe, expect, it } from 'vitest';
import { parseMarkdownTable, summariesToCsv, summariesToMarkdown } from './export';
import { MB_NOTE } from '../readouts/format';
import { RECORD_FORMAT, type RunRecord } from '.';
import { DEFAULT_MODE } from '../../labs/streams/view/verdict.fixtures';
import { makeCpuSummary, makeHttpSummary } from '../test-fixtures';
import { MIB } from '../protocol/params';
import { verdictOf } from '../../labs/verdict-of';
import { traitsOf } from '../../labs/test-traits';
import type { StreamsSummary } from '../../labs/streams/shared/schema';

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
      preparedUnits: summary.fileBytes,
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

/** A streams run with the http consumer, 8 calls at a time, over records (#30's figures). */
function consumerRecord(): RunRecord {
  const base = record({ id: 'r-0000000004' });
  const summary = base.run.summary as StreamsSummary;
  const consumer: StreamsSummary = {
    ...summary,
    mbPerSec: 2.7,
    params: { ...summary.params, consumer: 'http', concurrency: 8, records: true, apiP99Ms: 40 },
    records: 74_074,
    recordsPerSec: 12_345.6,
    concurrency: 8,
    apiCalls: 74_074,
    apiErrors: 3,
    apiP50Ms: 2.1,
    apiP99Ms: 38.5,
    peakApiQueued: 0,
  };
  return { ...base, run: { ...base.run, params: consumer.params, summary: consumer } };
}

describe('summary CSV', () => {
  it('carries the event-loop delay and GC figures of the summary', () => {
    const [header, row] = summariesToCsv([record()])
      .trim()
      .split('\n')
      .map((l) => l.split(','));
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

  it('carries the consumer’s knobs and figures, and what a strategy with no bound ran with', () => {
    const unbounded = consumerRecord();
    unbounded.run = { ...unbounded.run, summary: { ...(unbounded.run.summary as StreamsSummary), concurrency: null } };
    const [header, http, sleep, none] = summariesToCsv([consumerRecord(), record(), unbounded])
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const cols = ['consumer', 'concurrency', 'splitRecords', 'records', 'recordsPerSec', 'apiP99Ms', 'apiPool', 'apiErrors', 'apiLatencyP99Ms', 'dbRows'];
    expect(cols.map((c) => http[header.indexOf(c)])).toEqual(['http', '8', 'true', '74074', '12345.6', '40', '16', '3', '38.5', '']);
    // A run recorded before the consumers: the sleep consumer's defaults, no figures.
    expect(cols.map((c) => sleep[header.indexOf(c)])).toEqual(['sleep', '', 'false', '', '', '', '', '', '', '']);
    expect(none[header.indexOf('concurrency')]).toBe('unbounded');
  });

  it('leaves them empty for an interrupted run, which has no summary', () => {
    const [header, row] = summariesToCsv([record({ status: 'interrupted', summary: null })])
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    expect(row[header.indexOf('gcCount')]).toBe('');
    expect(row[header.indexOf('eventLoopDelayMaxMs')]).toBe('');
  });
});

describe('summary Markdown', () => {
  it('says once, above the table, that MB means MiB, and still parses back', () => {
    const md = summariesToMarkdown([record()], { 'streams/ixjs-from': 'IxJS from + concatMap' });
    expect(md.split('\n')[0]).toBe(MB_NOTE);
    const table = parseMarkdownTable(md);
    expect(table[1].slice(0, 3)).toEqual(['IxJS from + concatMap', 'completed', '16']);
  });

  it('gives a streams run its consumer, concurrency and records/s, and dashes for a run recorded before them', () => {
    const md = summariesToMarkdown([consumerRecord(), record()]);
    const [head, http, before] = parseMarkdownTable(md);
    const cell = (row: string[], name: string) => row[head.indexOf(name)];
    expect(['Consumer', 'Concurrency', 'MB/s', 'Records/s'].map((h) => cell(http, h))).toEqual(['http', '8', '2.7', '12,346']);
    expect(['Consumer', 'Concurrency', 'Records/s'].map((h) => cell(before, h))).toEqual(['sleep', '–', '–']);
  });
});

/** A stored record around an HTTP run (20 responses of a 1,000-row table, 4 clients at once). */
function httpRecord(over: Partial<RunRecord['run']> = {}): RunRecord {
  const summary = makeHttpSummary({ strategy: 'ndjson-cursor', peak: { heapUsed: 11 * MIB }, peakWritableBytes: 2 * MIB, latencyP50Ms: 30.25 });
  const base = record();
  return {
    ...base,
    run: { ...base.run, lab: 'http', id: 'r-0000000002', strategy: 'ndjson-cursor', params: summary.params, preparedUnits: 20, summary, ...over },
  };
}

describe('summary CSV with HTTP runs', () => {
  const csvRows = (records: RunRecord[]) => {
    const [header, ...rows] = summariesToCsv(records)
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    return rows.map((row) => (name: string) => row[header.indexOf(name)]);
  };

  it('adds the lab and the HTTP figures after the columns scripts already read', () => {
    const header = summariesToCsv([]).trim().split(',');
    expect(header.slice(0, 4)).toEqual(['id', 'experimentId', 'strategy', 'status']);
    expect(header.indexOf('lab')).toBe(header.indexOf('libraryVersion') + 1);
  });

  it('fills each lab’s own columns and leaves the other lab’s empty', () => {
    const [streams, http] = csvRows([record(), httpRecord()]);
    expect(['lab', 'sizeMb', 'fileBytes', 'rows', 'responsesOk'].map(streams)).toEqual(['streams', '16', String(16 * MIB), '', '']);
    expect(['lab', 'sizeMb', 'fileBytes', 'mbPerSec', 'peakBufferedBytes'].map(http)).toEqual(['http', '', '', '', '']);
    expect(
      ['rows', 'concurrency', 'requests', 'requestsPlanned', 'responsesOk', 'badResponses', 'latencyP50Ms', 'peakWritableBytes', 'peakHeapUsed'].map(http),
    ).toEqual(['1000', '4', '20', '20', '20', '0', '30.25', String(2 * MIB), String(11 * MIB)]);
  });

  it('counts an interrupted HTTP run’s responses from its last stored sample', () => {
    const interrupted = httpRecord({ status: 'interrupted', summary: null });
    interrupted.observed = {
      peak: { rss: 1, heapTotal: 1, heapUsed: 1, external: 1, arrayBuffers: 1 },
      procPeakRss: 1,
      readings: { responsesOk: 7, badResponses: 1 },
      lastT: 900,
      sampleCount: 18,
      procCount: 18,
    };
    const [row] = csvRows([interrupted]);
    expect(['responsesOk', 'badResponses', 'requestsPlanned', 'latencyP50Ms', 'durationMs'].map(row)).toEqual(['7', '1', '20', '', '900']);
  });
});

describe('summary CSV with CPU runs', () => {
  const csvRows = (records: RunRecord[]) => {
    const [header, ...rows] = summariesToCsv(records)
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    return rows.map((row) => (name: string) => row[header.indexOf(name)]);
  };
  const cpuRecord = (): RunRecord => {
    const summary = makeCpuSummary({ strategy: 'worker-pool', speedup: 1.9, cpu: { userMs: 4200, systemMs: 80, peakPct: 198 } });
    const base = record();
    return { ...base, run: { ...base.run, lab: 'cpu', id: 'r-0000000003', strategy: 'worker-pool', params: summary.params, preparedUnits: 4, summary } };
  };

  it('fills the CPU lab’s columns and the CPU time every run has, sharing the columns that mean the same', () => {
    const [streams, http, cpu] = csvRows([record(), httpRecord(), cpuRecord()]);
    expect(['lab', 'n', 'workers', 'keepAlive', 'requests', 'concurrency', 'requestsPlanned', 'requestsOk', 'makespanMs', 'speedup', 'cores'].map(cpu)).toEqual(
      ['cpu', '40', 'cores', 'false', '4', '4', '4', '4', '4000', '1.9', '2'],
    );
    expect(['cpuUserMs', 'cpuSystemMs', 'cpuPeakPct'].map(cpu)).toEqual(['4200', '80', '198']);
    expect(['rows', 'responsesOk', 'sizeMb'].map(cpu)).toEqual(['', '', '']);
    expect(['n', 'speedup', 'requestsOk'].map(http)).toEqual(['', '', '']);
    expect(['n', 'concurrency', 'cpuUserMs'].map(streams)).toEqual(['', '', '']);
  });
});

describe('summary Markdown with HTTP runs', () => {
  it('writes one table per lab, each under its lab’s name', () => {
    const md = summariesToMarkdown([record(), httpRecord()], { 'http/ndjson-cursor': 'cursor → pipeline → NDJSON' });
    expect(md).toContain('**Streams**');
    expect(md).toContain('**HTTP responses**');
    const table = parseMarkdownTable(md);
    expect(table[2].slice(0, 6)).toEqual(['Strategy', 'Outcome', 'Rows', 'Clients', 'Requests', 'Slow clients']);
    expect(table[3].slice(0, 3)).toEqual(['cursor → pipeline → NDJSON', 'completed', '1000']);
    expect(table[3][table[2].indexOf('Socket buffers (MB)')]).toBe('2.0');
    expect(table[3][table[2].indexOf('p50 (ms)')]).toBe('30.3');
  });

  it('writes an HTTP-only export without lab headings', () => {
    const md = summariesToMarkdown([httpRecord()]);
    expect(md).not.toContain('**');
    expect(parseMarkdownTable(md)[1][0]).toBe('ndjson-cursor');
  });
});

describe('summary Markdown with CPU runs', () => {
  it('writes the CPU lab’s table from its summary: workers "cores" when null, speed-up of the cores', () => {
    const summary = makeCpuSummary({ strategy: 'worker-pool', makespanMs: 2100, speedup: 1.9, peakTreeRss: 80 * MIB, peakThreads: 13 });
    const base = record();
    const cpu: RunRecord = {
      ...base,
      run: { ...base.run, lab: 'cpu', id: 'r-0000000003', strategy: 'worker-pool', params: summary.params, preparedUnits: 4, summary },
    };
    const table = parseMarkdownTable(summariesToMarkdown([cpu]));
    const cell = (name: string) => table[1][table[0].indexOf(name)];
    expect(table[0].slice(0, 6)).toEqual(['Strategy', 'Outcome', 'n', 'Requests', 'At once', 'Workers']);
    expect(['n', 'Workers', 'Makespan (s)', 'Speed-up', 'Tree RSS (MB)', 'Threads', 'OK'].map(cell)).toEqual([
      '40',
      'cores',
      '2.10',
      '1.90 of 2',
      '80',
      '13',
      '4 / 4',
    ]);
  });
});

describe('the verdict in the exports', () => {
  /** The recorded ixjs-from run as the API serves it: its summary with the verdict made from the catalog's traits. */
  const judged = (): RunRecord => {
    const r = record();
    const s = r.run.summary!;
    return { ...r, run: { ...r.run, summary: { ...s, verdict: verdictOf(s, traitsOf(s)) } } };
  };
  /** One CSV line's cells (RFC 4180: quoted cells may hold commas and doubled quotes). */
  const cells = (line: string): string[] => {
    const out: string[] = [];
    for (let i = 0; ; i++) {
      if (line[i] === '"') {
        let value = '';
        for (let j = i + 1; ;) {
          const q = line.indexOf('"', j);
          if (q < 0) throw new Error(`unclosed quote in ${line}`);
          value += line.slice(j, q);
          if (line[q + 1] !== '"') {
            i = q + 1;
            break;
          }
          value += '"';
          j = q + 2;
        }
        out.push(value);
      } else {
        const comma = line.indexOf(',', i);
        const end = comma < 0 ? line.length : comma;
        out.push(line.slice(i, end));
        i = end;
      }
      if (i >= line.length) return out;
    }
  };

  it('adds verdict and verdictExpected as the CSV’s last columns, after every column scripts already read', () => {
    const [header, row] = summariesToCsv([judged()]).trim().split('\n');
    const names = header.split(',');
    expect(names.slice(-2)).toEqual(['verdict', 'verdictExpected']);
    expect(names.slice(0, -2)).toEqual(
      summariesToCsv([record({ summary: null })])
        .split('\n')[0]
        .split(',')
        .slice(0, -2),
    );
    const read = cells(row);
    expect(read).toHaveLength(names.length);
    // The sentence has commas and reads back whole; the columns before it are where they were.
    expect(read.at(-2)).toBe(judged().run.summary!.verdict!.text);
    expect(read.at(-2)).toContain(', but this strategy discards every result,');
    expect(read.at(-1)).toBe('true');
    expect(read[names.indexOf('gcCount')]).toBe('9');
  });

  it('leaves both empty for a run without a verdict, and verdictExpected empty when it can’t be told', () => {
    const [header, none] = summariesToCsv([record({ status: 'interrupted', summary: null })])
      .trim()
      .split('\n');
    expect(cells(none).slice(-2)).toEqual(['', '']);
    const r = judged();
    const unknown = { ...r, run: { ...r.run, summary: { ...r.run.summary!, verdict: { ...r.run.summary!.verdict!, expected: null } } } };
    const row = cells(summariesToCsv([unknown]).trim().split('\n')[1]);
    expect(row[header.split(',').indexOf('verdictExpected')]).toBe('');
  });

  it('adds Verdict and As expected as the Markdown table’s last columns', () => {
    const table = parseMarkdownTable(summariesToMarkdown([judged()]));
    expect(table[0].slice(-4)).toEqual(['Date', 'Run', 'Verdict', 'As expected']);
    expect(table[1].slice(-2)).toEqual([judged().run.summary!.verdict!.text, 'yes']);
    expect(parseMarkdownTable(summariesToMarkdown([record({ status: 'interrupted', summary: null })]))[1].slice(-2)).toEqual(['–', '–']);
  });
});
