import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { streamsLab } from '../../labs/streams/parent/index';

const STRATEGY_IDS = streamsLab.strategies.map((s) => s.id);
import { parseBenchArgs, UsageError } from './args';

/** The repeat, baseline and report flags when none are given. */
const NO_REPEATS_OR_REPORTS = { repeat: 1, baseline: null, compare: null, tolerance: 0.25, junit: null, markdown: null, files: null, sweep: null };

/** The UsageError parseBenchArgs throws for argv (fails the test if it does not throw one). */
function usageError(argv: string[]): UsageError {
  try {
    parseBenchArgs(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error(`parseBenchArgs(${JSON.stringify(argv)}) did not throw`);
}

describe('parseBenchArgs', () => {
  it('defaults to every strategy, the default parameters and the table output', () => {
    expect(parseBenchArgs([])).toEqual({
      lab: 'streams',
      strategies: [...STRATEGY_IDS],
      params: DEFAULT_STREAMS_PARAMS,
      json: false,
      nodes: [null],
      expect: {},
      checks: [],
      ...NO_REPEATS_OR_REPORTS,
    });
  });

  it('applies caller defaults under the flags', () => {
    expect(parseBenchArgs(['--delay-ms', '3'], { sizeMb: 4, delayMs: 9 }).params).toEqual({ ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, delayMs: 3 });
  });

  it('parses every kind of flag, in both "--flag value" and "--flag=value" form', () => {
    const args = parseBenchArgs([
      '--strategies',
      'rxjs-from, for-await',
      '--size-mb=32',
      '--delay-ms',
      '2',
      '--cpu-us',
      '100',
      '--chunk-kb',
      '16',
      '--sample-ms',
      'off',
      '--budget-mb',
      'off',
      '--max-old-space-mb',
      '64',
      '--timeout-s',
      '30',
      '--seed',
      '7',
      '--consumer',
      'http',
      '--concurrency=8',
      '--records',
      '--api-p99-ms',
      '200',
      '--api-error-rate',
      '0.05',
      '--api-pool',
      '4',
      '--db-batch-rows',
      '100',
      '--retained',
      '--json',
      '--node',
      '20,22',
    ]);
    expect(args).toEqual({
      lab: 'streams',
      strategies: ['rxjs-from', 'for-await'],
      params: {
        sizeMb: 32,
        delayMs: 2,
        cpuUs: 100,
        chunkKb: 16,
        consumer: 'http',
        concurrency: 8,
        records: true,
        apiP99Ms: 200,
        apiErrorRate: 0.05,
        apiPool: 4,
        dbBatchRows: 100,
        sampleMs: null,
        retained: true,
        budgetMb: null,
        maxOldSpaceMb: 64,
        timeoutS: 30,
        seed: 7,
        node: null,
      },
      json: true,
      expect: {},
      checks: [],
      nodes: ['20', '22'],
      ...NO_REPEATS_OR_REPORTS,
    });
  });

  it('takes --repeat, --tolerance, --baseline, --junit and --markdown, and refuses them out of range or where no file can be', () => {
    const here = new URL(import.meta.url).pathname;
    const args = parseBenchArgs(['--repeat', '5', '--tolerance', '2.5', '--baseline', here, '--junit', 'out.xml', '--markdown=/tmp/summary.md']);
    expect(args).toMatchObject({ repeat: 5, tolerance: 0.025, baseline: here, junit: 'out.xml', markdown: '/tmp/summary.md' });
    expect(parseBenchArgs(['--compare', 'durationMs, rss.peak,durationMs']).compare).toEqual(['durationMs', 'rss.peak']);
    expect(usageError(['--compare', 'durationMs,outcome,rss']).message).toMatch(
      /^--compare: unknown figure "outcome,rss"; the streams lab's figures: durationMs, rss\.peak, /,
    );
    expect(usageError(['--repeat', '0']).message).toBe('--repeat must be a number from 1 to 100, got "0"');
    expect(usageError(['--repeat', '2.5']).message).toBe('--repeat must be a whole number from 1 to 100, got "2.5"');
    expect(usageError(['--tolerance', '-1']).message).toBe('--tolerance must be a number from 0 to 1000, got "-1"');
    expect(usageError(['--baseline', '/nonexistent/old.json']).message).toBe('--baseline: no such file "/nonexistent/old.json"');
    expect(usageError(['--junit', '/nonexistent/dir/out.xml']).message).toBe('--junit: no folder for "/nonexistent/dir/out.xml"');
  });

  it('takes "all" as every strategy', () => {
    expect(parseBenchArgs(['--strategies', 'all']).strategies).toEqual([...STRATEGY_IDS]);
  });

  it.each([
    ['a negative --delay-ms', ['--delay-ms', '-1'], '--delay-ms: delayMs must be between 0 and 1000'],
    ['--size-mb 0', ['--size-mb', '0'], '--size-mb: sizeMb must be between 1 and 2048'],
    ['an absurd --size-mb', ['--size-mb', '999999'], '--size-mb: sizeMb must be between 1 and 2048'],
    ['--sample-ms 5', ['--sample-ms', '5'], '--sample-ms: sampleMs must be between 10 and 1000'],
    ['--sample-ms 5000', ['--sample-ms', '5000'], '--sample-ms: sampleMs must be between 10 and 1000'],
    ['--budget-mb below the minimum', ['--budget-mb=8'], '--budget-mb: budgetMb must be between 32 and 16384'],
    ['a fractional --chunk-kb', ['--chunk-kb', '1.5'], '--chunk-kb: chunkKb must be a whole number'],
    ['a non-numeric --delay-ms', ['--delay-ms', 'abc'], '--delay-ms must be a number (0–1000), got "abc"'],
    ['an empty --size-mb', ['--size-mb='], '--size-mb must be a number (1–2048), got ""'],
    ['"off" where off is not allowed', ['--delay-ms', 'off'], '--delay-ms must be a number (0–1000), got "off"'],
    ['a non-numeric nullable flag', ['--sample-ms', 'fast'], '--sample-ms must be a number (10–1000 or off), got "fast"'],
    ['a flag without its value', ['--delay-ms'], '--delay-ms needs a value'],
    ['a flag followed by another flag', ['--delay-ms', '--json'], '--delay-ms needs a value'],
  ])('rejects %s, naming the flag and the allowed range', (_name, argv, message) => {
    expect(usageError(argv).message).toBe(message);
  });

  it('rejects an unknown strategy, naming the flag and the allowed ids', () => {
    expect(usageError(['--strategies', 'for-await,nope,rxjs']).message).toBe(
      `--strategies: unknown strategy "nope,rxjs"; allowed: all or a comma-separated list of ${STRATEGY_IDS.join(', ')}`,
    );
  });

  it('takes --lab streams as the default lab, and names the labs for an unknown one', () => {
    expect(parseBenchArgs(['--lab', 'streams', '--size-mb', '2']).params).toEqual({ ...DEFAULT_STREAMS_PARAMS, sizeMb: 2 });
    expect(usageError(['--lab', 'nope']).message).toBe('--lab: unknown lab "nope"; allowed: streams, http, cpu, deadline, hotcode');
  });

  it.each(['--retained=false', '--json=yes'])('rejects a value on the switch %s instead of ignoring it', (arg) => {
    const [flag, value] = arg.split('=');
    expect(() => parseBenchArgs([arg])).toThrow(new UsageError(`${flag} takes no value (got "${value}"); leave it out to turn it off`));
  });

  it('takes --heap-profile, --heap-interval-kb and --heap-snapshot, refusing a bad trigger with the forms it allows', () => {
    const p = parseBenchArgs(['--heap-profile', '--heap-interval-kb', '64', '--heap-snapshot', 'when=arrayBuffers>32MB']).params;
    expect(p).toMatchObject({ heapProfile: true, heapIntervalKb: 64, heapSnapshot: 'when=arrayBuffers>32MB' });
    expect(parseBenchArgs(['--heap-snapshot=at=2.5']).params).toMatchObject({ heapSnapshot: 'at=2.5' });
    expect(usageError(['--heap-snapshot', 'soon']).message).toBe(
      '--heap-snapshot: heapSnapshot must be at=<seconds> (0–3600) or when=<figure>><value>, e.g. when=arrayBuffers>32MB; got "soon"',
    );
    expect(usageError(['--heap-snapshot', 'when=rows>5']).message).toMatch(
      /^--heap-snapshot: heapSnapshot: when= names "rows", which this lab's samples don't have; allowed: rss, heapTotal, heapUsed, external, arrayBuffers, elMeanMs, .*bytesRead/,
    );
    expect(usageError(['--heap-interval-kb', '8']).message).toBe('--heap-interval-kb: heapIntervalKb must be between 16 and 65536');
    // at= is the runner's timer and rss its /proc readings too: neither waits for a sample.
    expect(parseBenchArgs(['--heap-snapshot', 'at=1', '--sample-ms', 'off']).params).toMatchObject({ heapSnapshot: 'at=1', sampleMs: null });
    expect(parseBenchArgs(['--heap-snapshot', 'when=rss>100MB', '--sample-ms', 'off']).params).toMatchObject({ heapSnapshot: 'when=rss>100MB' });
    expect(usageError(['--heap-snapshot', 'when=heapUsed>1MB', '--sample-ms', 'off']).message).toBe(
      '--heap-snapshot: heapSnapshot: a when= trigger other than rss needs the sampler on (sampleMs); it is off',
    );
  });

  it('rejects an unknown flag, listing the allowed flags', () => {
    expect(usageError(['--delay', '5']).message).toBe(
      'unknown flag --delay; allowed: --lab, --strategies, --strategy-file, --expect, --assert, --checks, --repeat, --baseline, --compare, --tolerance, --junit, --markdown, --files, --sweep, --size-mb, --delay-ms, --cpu-us, --chunk-kb, --sample-ms, ' +
        '--budget-mb, --max-old-space-mb, --timeout-s, --profile-interval-us, --heap-interval-kb, --heap-snapshot, --seed, ' +
        '--consumer, --concurrency, --api-p99-ms, --api-error-rate, --api-pool, --db-batch-rows, --retained, --profile, --heap-profile, --records, --node, --json',
    );
  });

  it('takes --sweep <param>=<values> for a numeric param, each value checked as the param is', () => {
    expect(parseBenchArgs(['--sweep', 'concurrency=1,2,4,8,16']).sweep).toEqual({ field: 'concurrency', values: [1, 2, 4, 8, 16] });
    expect(usageError(['--sweep', 'concurrency=1,99']).message).toBe('--sweep: concurrency=99: concurrency must be between 1 and 64');
    expect(usageError(['--sweep', 'concurrency=1,']).message).toMatch(/^--sweep: concurrency=: concurrency must be a number/);
    expect(usageError(['--sweep', 'colour=1']).message).toMatch(
      /^--sweep must be <param>=<value>,<value>… with one of the streams lab's numeric params \(sizeMb, /,
    );
    expect(usageError(['--sweep', 'concurrency=1,8', '--repeat', '3']).message).toBe(
      "--sweep can't go with --repeat: their figures are summed up by strategy, and the swept values would be mixed",
    );
    // The hot-code lab's --sweep stays its own switch.
    expect(parseBenchArgs(['--lab', 'hotcode', '--sweep']).params).toMatchObject({ sweep: true });
  });

  it('names the consumers a bad --consumer may be, and the range of a bad --concurrency', () => {
    expect(usageError(['--consumer', 'kafka']).message).toBe('--consumer: consumer must be one of sleep, http, postgres');
    expect(usageError(['--concurrency', '0']).message).toBe('--concurrency: concurrency must be between 1 and 64');
  });
});
