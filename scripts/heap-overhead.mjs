// `node scripts/heap-overhead.mjs [rounds] [streams|http]`: what sampling allocations costs a run (docs/results.md §17).
// Each round runs the same bench twice, without and with --heap-profile (order alternating round by
// round, so a machine that slows down over the minutes charges both alike), for the streams lab's
// pipeline at delay 0 and the HTTP lab's cursor pipeline; prints each run's wall and CPU time and the
// medians' ratio. Every run is a fresh child, as on the page.
import { spawnSync } from 'node:child_process';

const rounds = Number(process.argv[2] ?? 5);
const CASES = {
  // 1 GiB: ~3 s a run (256 MiB took 0.6–0.8 s, where noise alone moved the medians ±14 %).
  streams: ['--lab', 'streams', '--strategies', 'pipeline-generator', '--size-mb', '1024', '--delay-ms', '0'],
  http: ['--lab', 'http', '--strategies', 'ndjson-cursor', '--rows', '100000', '--concurrency', '4', '--requests', '20'],
};

function bench(args) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/bench.ts', ...args, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`bench ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-500)}`);
  const [s] = JSON.parse(r.stdout);
  return { wallMs: s.durationMs, cpuMs: s.cpu.userMs + s.cpu.systemMs, outcome: s.outcome };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const only = process.argv[3];
for (const [name, args] of Object.entries(CASES).filter(([n]) => !only || n === only)) {
  const off = [];
  const on = [];
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    for (const which of order) {
      const r = bench(which === 'on' ? [...args, '--heap-profile'] : args);
      (which === 'on' ? on : off).push(r);
      console.log(`${name} round ${i + 1} ${which}: ${r.outcome}, wall ${r.wallMs} ms, CPU ${r.cpuMs.toFixed(0)} ms`);
    }
  }
  const ratio = (key) => median(on.map((r) => r[key])) / median(off.map((r) => r[key]));
  console.log(
    `${name}: median wall ${median(off.map((r) => r.wallMs))} → ${median(on.map((r) => r.wallMs))} ms (${((ratio('wallMs') - 1) * 100).toFixed(1)} %), ` +
      `median CPU ${median(off.map((r) => r.cpuMs)).toFixed(0)} → ${median(on.map((r) => r.cpuMs)).toFixed(0)} ms (${((ratio('cpuMs') - 1) * 100).toFixed(1)} %)`,
  );
}
