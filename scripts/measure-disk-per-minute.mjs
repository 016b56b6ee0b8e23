// `node scripts/measure-disk-per-minute.mjs`: one real run of ~60 s at the default 50 ms sampling
// (for-await, 8 MiB at 470 ms per chunk) through a server without Next; prints its record's disk use.
import { spawn } from 'node:child_process';
import { execSync } from 'node:child_process';
import WebSocket from 'ws';
const dir = process.env.STREAM_LAB_DATA_DIR ?? '/tmp/stream-lab-disk-minute';
execSync(`rm -rf ${dir}`);
const srv = spawn(process.execPath, ['--import', 'tsx', 'server/store/history-test-server.ts'], {
  env: { ...process.env, STREAM_LAB_DATA_DIR: dir },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((r) =>
  srv.stdout.on('data', (d) => {
    const m = /ready on (\S+)/.exec(String(d));
    if (m) r(m[1]);
  }),
);
const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { origin: url });
await new Promise((r) => ws.once('open', r));
const params = { sizeMb: 8, delayMs: 470, cpuUs: 0, chunkKb: 64, sampleMs: 50, retained: false, budgetMb: 1024, maxOldSpaceMb: null, timeoutS: 600, seed: 1 };
ws.send(JSON.stringify({ type: 'experiment.start', strategies: ['for-await'], params, parallel: false }));
const summary = await new Promise((r) =>
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    if (m.type === 'run.ended') r(m.summary);
  }),
);
await new Promise((r) => setTimeout(r, 1500));
const id = summary.runId;
console.log(`run ${id}: ${summary.outcome}, ${(summary.durationMs / 1000).toFixed(1)} s, ${summary.sampleCount} samples`);
console.log(execSync(`du -sb ${dir}/runs/${id} ${dir}/runs/${id}/*; du -sk ${dir}/runs/${id}; wc -l ${dir}/runs/${id}/samples.ndjson`).toString());
ws.close();
srv.kill('SIGTERM');
