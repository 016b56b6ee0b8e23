/**
 * Strategies of yours, end to end through the bench CLI (real child processes, real files): new
 * readers written into a temporary strategies folder are listed, run fenced in the same harness as
 * the built-ins, and judged by their figures, not their names.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../test-support';
import type { StreamsSummary } from '../../labs/streams/shared/schema';
import { isMeasured } from '../../lib/protocol';
import { streamsVerdict } from '../../labs/streams/view/verdict';
import { strategyCatalog } from '../../labs/catalog';
import { findStrategy, userStrategyEntries } from '../../labs/registry';
import { scanUserStrategies } from '.';
import { admit } from '../queue/admission';
import { receiveStrategies, shipStrategies } from './shipped';
import { fencedInspector, unfencedProfilingAllowed } from './fence';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

/** A push reader: every 'data' event starts a consumer call, nobody waits. */
const EVENTS_PUSH = `
  export const strategy = {
    id: 'events-push',
    label: 'data events, no waiting',
    mode: 'push',
    run({ stream, consume }) {
      return new Promise((resolve, reject) => {
        const calls = [];
        stream.on('data', (chunk) => calls.push(consume(chunk)));
        stream.on('error', reject);
        stream.on('end', () => Promise.all(calls).then(() => resolve(), reject));
      });
    },
  };`;

/** New readers, not copies of built-ins. */
const FILES: Record<string, string> = {
  // Pull: takes chunks two at a time from the async iterator and waits for the consumer each time.
  'pairs-pull.ts': `
    import type { Readable } from 'node:stream';
    export const strategy = {
      id: 'pairs-pull',
      label: 'Pairs, pulled',
      mode: 'pull' as const,
      async run({ stream, consume }: { stream: Readable; consume(chunk: Buffer): Promise<string> }) {
        let pair: Buffer[] = [];
        for await (const chunk of stream) {
          pair.push(chunk);
          if (pair.length === 2) {
            for (const c of pair) await consume(c);
            pair = [];
          }
        }
        for (const c of pair) await consume(c);
      },
    };`,
  // Push, and says so: every 'data' event starts a consumer call, nobody waits.
  'events-push.mjs': EVENTS_PUSH,
  // The same push reader, claiming pull: the verdict must say the claim is contradicted.
  'claims-pull.js': EVENTS_PUSH.replace("id: 'events-push'", "id: 'claims-pull'").replace("mode: 'push'", "mode: 'pull'"),
  'broken.ts': `export const strategy = {\n  id: 'broken',\n  run() { return 1 +; },\n};\n`,
  'writes-file.ts': `
    import { writeFileSync } from 'node:fs';
    export const strategy = {
      id: 'writes-file', label: 'writes a file', mode: 'pull' as const,
      async run({ stream, consume }: any) {
        for await (const chunk of stream) {
          await consume(chunk);
          writeFileSync(TARGET, 'x');
        }
      },
    };`,
  'spawns.ts': `
    import { execFileSync } from 'node:child_process';
    export const strategy = {
      id: 'spawns', label: 'spawns a process', mode: 'pull' as const,
      async run({ stream, consume }: any) {
        execFileSync('true');
        for await (const chunk of stream) await consume(chunk);
      },
    };`,
  'starts-worker.ts': `
    import { Worker } from 'node:worker_threads';
    export const strategy = {
      id: 'starts-worker', label: 'starts a worker', mode: 'pull' as const,
      async run({ stream, consume }: any) {
        new Worker('setTimeout(() => {}, 10)', { eval: true });
        for await (const chunk of stream) await consume(chunk);
      },
    };`,
  // Reads the environment: a fenced run sees none of the server's secrets.
  'reads-env.ts': `
    export const strategy = {
      id: 'reads-env', label: 'reads the environment', mode: 'pull' as const,
      async run() {
        throw new Error('sees ' + Object.keys(process.env).filter((k) => /^(STREAM_LAB|DATABASE|REDIS)/.test(k)).sort().join(','));
      },
    };`,
  // esbuild reads imports in the server, before any fence: a file elsewhere may not come in as text.
  'reads-host-file.ts': `
    import text from '/etc/hostname' with { type: 'text' };
    export const strategy = { id: 'reads-host-file', label: text, mode: 'pull', async run() {} };`,
  // A helper (its name starts with _) is no strategy; the strategy beside it imports it.
  '_chunks.ts': `export async function* pairs(stream: AsyncIterable<Buffer>) { let p: Buffer[] = []; for await (const c of stream) { p.push(c); if (p.length === 2) { yield p; p = []; } } if (p.length) yield p; }`,
  'uses-helper.ts': `
    import { pairs } from './_chunks';
    export const strategy = {
      id: 'uses-helper', label: 'pairs from a helper', mode: 'pull' as const,
      async run({ stream, consume }: any) { for await (const p of pairs(stream)) for (const c of p) await consume(c); },
    };`,
  // Waits on nothing that can ever happen: the run's event loop runs empty.
  'never-settles.ts': `export const strategy = { id: 'never-settles', label: 'never settles', mode: 'pull', run: () => new Promise(() => {}) };`,
  // Its last wait is on work that keeps nothing alive but does end (as a thread pool's destroy does).
  'awaits-unrefd.ts': `export const strategy = { id: 'awaits-unrefd', label: 'awaits unref\\'d work', mode: 'pull', async run({ stream, consume }) { for await (const c of stream) await consume(c); await new Promise((r) => setTimeout(r, 300).unref()); } };`,
  'takes-built-in-id.ts': `export const strategy = { id: 'rxjs-from', mode: 'push', async run() {} };`,
  'no-mode.ts': `export const strategy = { id: 'no-mode', async run() {} };`,
};

describe('strategies of yours', () => {
  let dir: string;
  let dataDir: string;
  let target: string;
  const bench = (args: string[]) =>
    runScript(rootDir, ['server/cli/bench.ts', ...args], {
      STREAM_LAB_DATA_DIR: dataDir,
      STREAM_LAB_STRATEGIES_DIR: dir,
      // A secret the server holds: the fenced run must not see it.
      STREAM_LAB_OPERATOR_TOKEN: 'a-secret-of-the-server',
    });
  // Runs that ended took samples; one that took none would have no verdict to test.
  const summaries = (stdout: string) =>
    (JSON.parse(stdout) as StreamsSummary[]).map((s) => {
      if (!isMeasured(s)) throw new Error(`${s.strategy} took no sample`);
      return s;
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stream-lab-yours-'));
    dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-yours-data-'));
    target = join(dataDir, 'written-by-a-strategy.txt');
    mkdirSync(join(dir, 'streams'));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, 'streams', name), text.replace('TARGET', JSON.stringify(target)));
    await scanUserStrategies(dir);
  }, 60_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every file under its lab: the good ones runnable, the others with their problem, file, line and column', () => {
    const yours = strategyCatalog().filter((s) => s.origin === 'yours');
    const byId = new Map(yours.map((s) => [s.id, s]));
    expect([...byId.keys()].sort()).toEqual(
      [
        'awaits-unrefd',
        'broken',
        'claims-pull',
        'events-push',
        'never-settles',
        'no-mode',
        'pairs-pull',
        'reads-env',
        'reads-host-file',
        'spawns',
        'starts-worker',
        'takes-built-in-id',
        'uses-helper',
        'writes-file',
      ].sort(),
    );
    for (const id of ['pairs-pull', 'events-push', 'claims-pull', 'writes-file']) {
      expect(byId.get(id)?.problem, id).toBeNull();
      expect(findStrategy('streams', id)?.id).toBe(id);
    }
    expect(byId.get('pairs-pull')).toMatchObject({ lab: 'streams', mode: 'pull', label: 'Pairs, pulled', file: join(dir, 'streams', 'pairs-pull.ts') });
    expect(byId.get('pairs-pull')?.code).toContain('pair.length === 2');
    // esbuild's message, at the line and column of the stray semicolon.
    expect(byId.get('broken')?.problem).toMatchObject({ file: join(dir, 'streams', 'broken.ts'), line: 3, column: 21 });
    expect(findStrategy('streams', 'broken')).toBeUndefined();
    // A built-in's id is refused (the file stands under its own name), and so is a reader that makes no claim.
    expect(byId.get('takes-built-in-id')?.problem?.message).toMatch(/rxjs-from.*built-in/);
    expect(
      strategyCatalog()
        .filter((s) => s.id === 'rxjs-from')
        .map((s) => s.origin),
    ).toEqual(['built-in']);
    expect(byId.get('no-mode')?.problem?.message).toMatch(/strategy\.mode must be 'push'/);
    expect(byId.get('reads-host-file')?.problem?.message).toMatch(
      /^a strategy of yours may import code or JSON from its own folder, node_modules or the labs' code \(@stream-lab\/labs\/…\) only, not .*etc\/hostname \(as text\)$/,
    );
    expect(byId.get('uses-helper')?.problem).toBeNull();
    // Other labs are untouched.
    expect(userStrategyEntries('cpu')).toEqual([]);
  });

  it('ships a strategy of yours to a worker with its bundle; a worker runs it only when allowed, and refuses a bundle that does not match its hash', () => {
    const [shipped] = shipStrategies('streams', ['pairs-pull']);
    expect(shipped).toMatchObject({ lab: 'streams', id: 'pairs-pull', strategy: { mode: 'pull', label: 'Pairs, pulled' } });
    expect(shipped.code).toContain('pair.length === 2');
    const optedIn = { STREAM_LAB_WORKER_RUNS_YOURS: '1' };
    // A worker runs code sent through Redis only when its operator said so.
    expect(() => receiveStrategies([shipped], {})).toThrow(/start it with STREAM_LAB_WORKER_RUNS_YOURS=1/);
    expect(() => receiveStrategies([{ ...shipped, code: `${shipped.code}\n// tampered` }], optedIn)).toThrow(
      /^the bundle of pairs-pull sent with the job does not match its hash/,
    );
    expect(() => receiveStrategies([{ ...shipped, lab: 'nope' }], optedIn)).toThrow(/pairs-pull can't run here: no lab nope here/);
    expect(() => receiveStrategies([shipped], optedIn)).not.toThrow();
    expect(() => shipStrategies('streams', ['broken'])).toThrow(/broken is not a strategy of yours that can run/);
  });

  it.skipIf(fencedInspector(process.versions.node) || unfencedProfilingAllowed())(
    'refuses at Start to profile a strategy of yours on a Node whose fence turns the inspector off, saying what would do',
    () => {
      const ask = (id: string) => () =>
        admit({ labId: 'streams', strategies: [id], rawParams: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1, profile: true }, queued: 0, mine: 0 });
      expect(ask('pairs-pull')).toThrow(/^profile: pairs-pull is a strategy of yours and runs fenced, .*Node 24 or later.*STREAM_LAB_UNFENCED_PROFILING=1/);
      // A built-in is profiled as before; a broken file of yours is refused for what is wrong with it.
      expect(ask('pipeline-generator')).not.toThrow();
      expect(ask('broken')).toThrow(/^strategies: broken can't run: .*broken\.ts:3:21: Unexpected ";"$/);
    },
  );

  it('runs a new pull and a new push reader beside a built-in, and the verdicts come from their figures', async () => {
    const result = await bench(['--strategies', 'pairs-pull,events-push,claims-pull,pipeline-generator', '--size-mb', '4', '--delay-ms', '5', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const runs = summaries(result.stdout);
    expect(runs.map((s) => [s.strategy, s.outcome])).toEqual([
      ['pairs-pull', 'completed'],
      ['events-push', 'completed'],
      ['claims-pull', 'completed'],
      ['pipeline-generator', 'completed'],
    ]);
    const [pull, push, claims] = runs;
    // Every chunk reached the consumer once, whatever the reader.
    for (const s of runs) expect(s.bytesProcessed, s.strategy).toBe(4 * 1024 * 1024);
    // The push readers start a consumer call per chunk without waiting; the pull one never has two going.
    expect(pull.peakInFlight).toBe(1);
    expect(push.peakInFlight).toBeGreaterThan(1);
    expect(claims.peakInFlight).toBeGreaterThan(1);
    const traits = (id: string) => strategyCatalog().find((s) => s.id === id)!;
    const pullVerdict = streamsVerdict(pull, traits('pairs-pull'));
    expect(pullVerdict.text).toMatch(/backpressure held\.$/);
    // A file of yours declares no outcome, but its mode is a claim the figures confirm or contradict.
    expect(pullVerdict.expected).toBe(true);
    const pushVerdict = streamsVerdict(push, traits('events-push'));
    expect(pushVerdict.text).toContain(`up to ${push.peakInFlight} consumer calls running at once: the operator ignored backpressure.`);
    expect(pushVerdict.text).not.toContain('declared pull');
    expect(pushVerdict.expected).toBe(true);
    const claimsVerdict = streamsVerdict(claims, traits('claims-pull'));
    expect(claimsVerdict.text).toContain('It is declared pull, but these figures contradict that: this reader does not hold backpressure.');
    expect(claimsVerdict.expected).toBe(false);
  }, 120_000);

  it('ends a strategy that writes a file, spawns a process or starts a worker as refused, naming the permission; nothing is written', async () => {
    const args = ['--strategies', 'writes-file,spawns,starts-worker,reads-env', '--size-mb', '1', '--delay-ms', '0', '--json'];
    // A run that ends worse than expected fails the bench (exit 1)…
    const result = await bench(args);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`bench: writes-file ended refused, expected completed (no permission to write ${target})`);
    expect(summaries(result.stdout).map((s) => [s.strategy, s.outcome, s.reason])).toEqual([
      ['writes-file', 'refused', `no permission to write ${target}`],
      ['spawns', 'refused', 'no permission to start a child process'],
      ['starts-worker', 'refused', 'no permission to start a worker thread'],
      // Of the server's variables only the data folder's path gets through: no operator token.
      ['reads-env', 'crashed', 'sees STREAM_LAB_DATA_DIR'],
    ]);
    expect(existsSync(target)).toBe(false);
    // …unless that is what the job expects of it.
    const expected = await bench([...args, '--expect', 'writes-file=refused,spawns=refused,starts-worker=refused', '--expect', 'reads-env=crashed']);
    expect(expected.code, expected.stderr).toBe(0);
  }, 300_000); // three fenced runs: 30–36 s in busy 35–36, over 120 s in busy 38 (the machine ~3× slower)

  it('runs a strategy of yours fenced on the real job: the http consumer, its API process and undici from node_modules', async () => {
    // The run's process forks the mock API and imports undici: the fence lets this run start
    // processes and read node_modules (with the sleep consumer, neither; the test above).
    const result = await bench(['--strategies', 'pairs-pull', '--size-mb', '1', '--delay-ms', '2', '--consumer', 'http', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const [s] = summaries(result.stdout);
    expect([s.outcome, s.reason]).toEqual(['completed', null]);
    expect(s.apiCalls).toBe(s.chunks);
    expect(s.apiErrors).toBe(0);
  }, 120_000);

  it("ends a strategy whose promise can never settle as crashed, saying so, without waiting for the watchdog; one that awaits unref'd work that ends completes", async () => {
    const result = await bench(['--strategies', 'never-settles,awaits-unrefd', '--size-mb', '1', '--delay-ms', '0', '--json']);
    expect(result.code, result.stderr).toBe(1);
    const [never, unrefd] = summaries(result.stdout);
    expect([never.outcome, never.reason]).toEqual(['crashed', "the strategy's promise never settled: the event loop ran empty while it was still waiting"]);
    // The watchdog's default is 600 s; the guard ends it a second after the loop first runs empty.
    expect(never.durationMs).toBeLessThan(60_000);
    // Waiting on unref'd work that ends within the guard's grace is no failure: the run completes.
    expect([unrefd.outcome, unrefd.reason]).toEqual(['completed', null]);
  }, 120_000);

  it('refuses a strategy that does not compile, naming file, line and column', async () => {
    const result = await bench(['--strategies', 'broken', '--size-mb', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(dir, 'streams', 'broken.ts')}:3:21: Unexpected ";"`);
  }, 60_000);

  it('runs a --strategy-file from outside the project, alone or beside a built-in', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'stream-lab-outside-'));
    try {
      const file = join(outside, 'my-reader.ts');
      writeFileSync(file, FILES['pairs-pull.ts'].replace("id: 'pairs-pull'", "id: 'my-reader'"));
      const alone = await runScript(rootDir, ['server/cli/bench.ts', '--strategy-file', file, '--size-mb', '1', '--delay-ms', '0', '--json'], {
        STREAM_LAB_DATA_DIR: dataDir,
        STREAM_LAB_STRATEGIES_DIR: join(outside, 'none'),
      });
      expect(alone.code, alone.stderr).toBe(0);
      expect(summaries(alone.stdout).map((s) => [s.strategy, s.outcome])).toEqual([['my-reader', 'completed']]);
      const beside = await runScript(
        rootDir,
        ['server/cli/bench.ts', '--strategy-file', file, '--strategies', 'pipeline-generator', '--size-mb', '1', '--delay-ms', '0', '--json'],
        { STREAM_LAB_DATA_DIR: dataDir, STREAM_LAB_STRATEGIES_DIR: join(outside, 'none') },
      );
      expect(beside.code, beside.stderr).toBe(0);
      expect(summaries(beside.stdout).map((s) => s.strategy)).toEqual(['pipeline-generator', 'my-reader']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 120_000);
});
