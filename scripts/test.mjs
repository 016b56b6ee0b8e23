// `npm test`: typecheck, lint, format, unit + integration tests, load tests, build, Playwright end-to-end.
// The unit tests start at once, and typecheck, lint, format and the build run beside them: none of those
// four measures time, and the unit tests bound what they measure by their own run's figures (they pass
// beside two busy loops, a harsher neighbour), so the ~1 min the four take on two cores hides inside
// the unit stage's ~3.5 min. The load tests (latency bounds) then run alone, then e2e, which serves the
// build. Every stage runs even when an earlier one failed, so one run shows everything that is broken;
// only e2e waits on the build. Then one summary table, in the stages' order; the exit code is 1 if any
// stage failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildIsStale, findChromium, root } from './lib.mjs';

const tty = Boolean(process.stdout.isTTY);
const vitest = 'node_modules/vitest/vitest.mjs';
// `counts` says where a stage's figures come from: vitest's and Playwright's JSON reports, or the
// errors tsc and ESLint print (their stdout is piped to count them, and passed on as it comes; the
// flags keep the colours a terminal would have had).
const STAGES = [
  // `together`: run beside the unit tests, each one's output printed whole when it ends.
  { id: 'typecheck', name: 'typecheck', args: ['node_modules/typescript/bin/tsc', '--noEmit', ...(tty ? ['--pretty'] : [])], counts: 'tsc', together: true },
  { id: 'lint', name: 'lint', args: ['node_modules/eslint/bin/eslint.js', ...(tty ? ['--color'] : []), '.'], counts: 'eslint', together: true },
  // The formatter's check, as `npm run lint` runs it after ESLint (.prettierrc.json; `npx prettier --write .` fixes it).
  { id: 'format', name: 'format (Prettier)', args: ['node_modules/prettier/bin/prettier.cjs', '--check', '.'], counts: 'prettier', together: true },
  { id: 'unit', name: 'unit + integration', args: [vitest, 'run'], counts: 'vitest' },
  { id: 'load', name: 'load (one file at a time)', args: [vitest, 'run', '--config', 'vitest.load.config.ts'], counts: 'vitest' },
  { id: 'build', name: 'build', args: ['node_modules/next/dist/bin/next', 'build'], together: true },
  { id: 'e2e', name: 'e2e (Playwright)', args: ['node_modules/@playwright/test/cli.js', 'test'], counts: 'playwright' },
];
const IDS = STAGES.map((s) => s.id);
const USAGE = `usage: npm test -- [--only <stage,...>] [--skip <stage,...>]   stages: ${IDS.join(', ')}`;

function parseArgs(argv) {
  const picked = { only: IDS, skip: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (flag !== '--only' && flag !== '--skip') fail(`unknown argument ${argv[i]}`);
    const list = (inline ?? argv[++i] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = list.filter((id) => !IDS.includes(id));
    if (!list.length || bad.length) {
      fail(`${flag} takes stage ids separated by commas, from: ${IDS.join(', ')}${bad.length ? ` (got: ${bad.join(', ')})` : ''}`);
    }
    picked[flag.slice(2)] = list;
  }
  return picked;
}
function fail(message) {
  console.error(`npm test: ${message}\n${USAGE}`);
  process.exit(2);
}

const { only, skip } = parseArgs(process.argv.slice(2));
const selected = (id) => only.includes(id) && !skip.includes(id);

// Checked first, not when e2e's turn comes: better to learn it now than after the rest has run.
const chromium = selected('e2e') ? await findChromium() : null;
if (selected('e2e') && !chromium) {
  console.error(
    'npm test needs a Chromium for the end-to-end tests and found none.\n' +
      'Set CHROMIUM_PATH to a Chromium binary, or install one:\n' +
      '  Debian/Ubuntu: sudo apt-get install -y chromium   (gives /usr/bin/chromium)\n' +
      '  elsewhere:     npx playwright install chromium\n' +
      'or leave the end-to-end tests out: npm test -- --skip e2e',
  );
  process.exit(1);
}

const reports = mkdtempSync(join(tmpdir(), 'stream-lab-test-'));
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...(chromium && { CHROMIUM_PATH: chromium }) };
const running = new Set(); // the running stages' processes
let interrupted = null;
// Ctrl-C reaches the stages' processes too; wait for them to clean up (vitest's forks, Playwright's
// servers), then stop and print what ran. A second one quits at once.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) {
      rmSync(reports, { recursive: true, force: true });
      process.exit(130);
    }
    interrupted = signal;
    for (const child of running) child.kill(signal);
  });
}

/**
 * Runs one stage; resolves with its exit and figures. Its output goes straight to the console, or,
 * with `hold`, is kept and printed whole when it ends (stages running side by side).
 */
function run(stage, hold) {
  const report = join(reports, `${stage.id}.json`);
  const extra =
    {
      vitest: ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      playwright: ['--reporter=list,json'], // the json reporter writes to PLAYWRIGHT_JSON_OUTPUT_FILE
    }[stage.counts] ?? [];
  const piped = hold || stage.counts === 'tsc' || stage.counts === 'eslint' || stage.counts === 'prettier';
  let child;
  return new Promise((resolve) => {
    child = spawn(process.execPath, [...stage.args, ...extra], {
      cwd: root,
      env: { ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: report },
      stdio: ['inherit', piped ? 'pipe' : 'inherit', hold ? 'pipe' : 'inherit'],
    });
    running.add(child);
    let out = '';
    let held = '';
    child.stdout?.on('data', (d) => {
      if (hold) held += d;
      else process.stdout.write(d);
      out += d;
    });
    child.stderr?.on('data', (d) => (held += d));
    child.on('error', (error) => resolve({ code: 1, note: error.message, held }));
    child.on('close', (code, signal) => resolve({ code: code ?? 1, signal, held, ...figures(stage.counts, report, out) }));
  }).finally(() => running.delete(child));
}

/** passed / failed / skipped tests (vitest, Playwright) or a count of errors (tsc, ESLint). */
function figures(kind, report, out) {
  const text = out.replace(/\x1b\[[0-9;]*m/g, '');
  if (kind === 'tsc') {
    const n = text.match(/error TS\d+/g)?.length ?? 0;
    return { note: n ? `${n} type error${n > 1 ? 's' : ''}` : '' };
  }
  if (kind === 'eslint') {
    const m = text.match(/\d+ errors?, \d+ warnings?/); // stylish's last line: ✖ 3 problems (2 errors, 1 warning)
    return { note: m?.[0] ?? '' };
  }
  if (kind === 'prettier') {
    const n = text.match(/^\[warn\] (?!Code style)/gm)?.length ?? 0;
    return { note: n ? `${n} file${n > 1 ? 's' : ''} not formatted` : '' };
  }
  if (!kind) return {};
  let json;
  try {
    json = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    return { note: 'no report written' };
  }
  if (kind === 'vitest') {
    const failures = json.testResults.flatMap((file) => {
      const where = relative(root, file.name);
      const tests = file.assertionResults.filter((t) => t.status === 'failed').map((t) => ({ where, name: t.fullName, error: t.failureMessages?.[0] }));
      // A file that failed to load has no failed test of its own, only a message.
      return tests.length || file.status !== 'failed' ? tests : [{ where, name: '(the file)', error: file.message }];
    });
    return { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests, failures };
  }
  const failures = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push({ where: `${spec.file}:${spec.line}`, name: [...titles, spec.title].join(' › '), error });
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
  };
  for (const suite of json.suites ?? []) walk(suite, []);
  const { expected, unexpected, skipped, flaky } = json.stats;
  return { passed: expected + flaky, failed: unexpected, skipped, note: flaky ? `${flaky} flaky (passed on retry)` : '', failures };
}

/** "45s", "2m 5s": whole seconds first, so 119.6 s reads "2m 0s", not "1m 60s". */
const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
};
const rows = new Map(); // stage id → its row of the table, printed in the stages' order
const started = Date.now();

/** Why a selected stage does not run now, or null. */
function skipReason(stage) {
  if (!only.includes(stage.id)) return '--only';
  if (skip.includes(stage.id)) return '--skip';
  if (interrupted) return 'interrupted';
  if (stage.id === 'e2e' && rows.get('build')?.result === 'FAILED') return 'build failed';
  return null;
}

/** Runs one stage (or says why not) and records its row. */
async function runStage(stage, hold = false) {
  const why = skipReason(stage);
  if (why) {
    rows.set(stage.id, { stage: stage.id, result: `skipped (${why})` });
    return;
  }
  const name = stage.id === 'e2e' ? `${stage.name}, Chromium at ${chromium}` : stage.name;
  if (!hold) console.log(`\n=== ${name} ===`);
  if (stage.id === 'e2e' && !selected('build') && buildIsStale()) {
    console.log('(no build stage in this run, and .next is missing or older than the sources: the tests use it as it is)');
  }
  const t0 = Date.now();
  const { held, ...r } = await run(stage, hold);
  const ok = r.code === 0 && !r.signal;
  const time = Date.now() - t0;
  if (hold) process.stdout.write(`\n=== ${name} ===\n${held}`);
  console.log(ok ? `=== ${name} ok in ${seconds(time)} ===` : `\n=== ${name} FAILED (exit ${r.signal ?? r.code}) in ${seconds(time)} ===`);
  // A failure that no failed test explains (a file that did not load, an error outside tests) says so.
  const unexplained = !ok && !r.failed && !r.note ? `exit ${r.signal ?? r.code}, see its output` : '';
  rows.set(stage.id, { ...r, stage: stage.id, result: ok ? 'passed' : 'FAILED', time: seconds(time), note: r.note || unexplained });
}

const unit = STAGES.find((s) => s.id === 'unit');
const together = STAGES.filter((s) => s.together && !skipReason(s));
const hold = together.length + (skipReason(unit) ? 0 : 1) > 1;
if (hold) {
  const beside = skipReason(unit) ? 'side by side' : 'beside the unit tests';
  console.log(`\n(${together.map((s) => s.id).join(', ')} run ${beside}; each one's output follows when it ends)`);
}
await Promise.all([runStage(unit), ...STAGES.filter((s) => s.together).map((s) => runStage(s, hold))]);
for (const stage of STAGES.filter((s) => !s.together && s !== unit)) await runStage(stage);
rmSync(reports, { recursive: true, force: true });

const table = STAGES.map((s) => rows.get(s.id));
const header = { stage: 'stage', result: 'result', passed: 'passed', failed: 'failed', skipped: 'skipped', time: 'time', note: 'note' };
const cols = Object.keys(header);
const cell = (row, c) => String(row[c] ?? (c === 'note' ? '' : '—'));
const width = Object.fromEntries(cols.map((c) => [c, Math.max(...[header, ...table].map((r) => cell(r, c).length))]));
const line = (row) =>
  cols
    .map((c) => (['passed', 'failed', 'skipped', 'time'].includes(c) ? cell(row, c).padStart(width[c]) : cell(row, c).padEnd(width[c])))
    .join('  ')
    .trimEnd();
console.log(
  `\n${line(header)}\n${cols
    .map((c) => '-'.repeat(width[c]))
    .join('  ')
    .trimEnd()}`,
);
for (const row of table) console.log(line(row));
// The failed tests by name after the table, so the last lines of a long log (all a CI page may keep) say what broke.
const named = table.flatMap((r) => (r.failures ?? []).map((f) => ({ ...f, stage: r.stage })));
if (named.length) console.log(`\nFailed tests:`);
for (const f of named.slice(0, 20)) {
  const first =
    (f.error ?? '')
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .find((l) => l.trim()) ?? '';
  console.log(`  ${f.stage}  ${f.where}  ${f.name}${first ? `\n      ${first.trim().slice(0, 300)}` : ''}`);
}
if (named.length > 20) console.log(`  … and ${named.length - 20} more (see above)`);
const failed = table.filter((r) => r.result === 'FAILED').map((r) => r.stage);
console.log(`\n${failed.length ? `FAILED: ${failed.join(', ')}` : 'No stage failed.'} (${seconds(Date.now() - started)} in all)`);
process.exit(interrupted ? 130 : failed.length ? 1 : 0);
