// `node scripts/measure-first-sample.mjs [runs]`: Start → first sample received over /ws, with the
// spare child on (default) and off (STREAM_LAB_SPARE_CHILD=0), through a server without Next.
// Each run: for-await over 1 MiB at 20 ms per chunk; 1.5 s idle between runs so a spare is booted.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

const runs = Number(process.argv[2] ?? 10);
const params = { sizeMb: 1, delayMs: 20, cpuUs: 0, chunkKb: 64, sampleMs: 50, retained: false, budgetMb: 1024, maxOldSpaceMb: null, timeoutS: 60, seed: 1 };

async function measure(spare) {
  const dir = mkdtempSync(join(tmpdir(), 'stream-lab-first-'));
  const env = { ...process.env, STREAM_LAB_DATA_DIR: dir, STREAM_LAB_PREPARE_MB: '0', STREAM_LAB_SPARE_CHILD: spare ? '1' : '0' };
  const srv = spawn(process.execPath, ['--import', 'tsx', 'server/store/history-test-server.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((r) =>
    srv.stdout.on('data', (d) => {
      const m = /ready on (\S+)/.exec(String(d));
      if (m) r(m[1]);
    }),
  );
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { origin: url });
  await new Promise((r) => ws.once('open', r));
  const times = [];
  for (let i = 0; i <= runs; i++) {
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = performance.now();
    let runId = null;
    const first = new Promise((resolve) => {
      const on = (d) => {
        const m = JSON.parse(String(d));
        if (m.type === 'run.queued' && !runId) runId = m.run.id;
        if (m.type === 'run.samples' && m.runId === runId && m.samples.length) resolve(performance.now() - t0);
        if (m.type === 'run.ended' && m.run.id === runId) ws.off('message', on);
      };
      ws.on('message', on);
    });
    ws.send(JSON.stringify({ type: 'experiment.start', strategies: ['for-await'], params, parallel: false }));
    const ms = await first;
    if (i > 0) times.push(ms); // the first run also makes the data file
    await new Promise((r) => {
      const on = (d) => {
        const m = JSON.parse(String(d));
        if (m.type === 'run.ended' && m.run.id === runId) {
          ws.off('message', on);
          r();
        }
      };
      ws.on('message', on);
    });
  }
  ws.close();
  srv.kill('SIGTERM');
  await new Promise((r) => srv.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(0);
  return `p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, min ${times[0].toFixed(0)} ms over ${times.length} runs`;
}

console.log(`spare on : ${await measure(true)}`);
console.log(`spare off: ${await measure(false)}`);
