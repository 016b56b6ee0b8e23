// Loads one bundle of yours inside the fence and tells the parent what its `strategy` declares
// (server/user-strategies/probe.ts). Plain JavaScript: the fenced process may read this file and
// the bundle, nothing else, so it can load no TypeScript loader.
const bundle = process.argv[2];

/** The first frame of the stack in the strategy's own source (mapped by --enable-source-maps), as [line, column]. */
function where(err) {
  const frame = String(err?.stack ?? '')
    .split('\n')
    .find((l) => /\.(m?[jt]s):\d+:\d+\)?$/.test(l) && !l.includes('node:') && !l.includes('probe-child.mjs'));
  const m = frame && /:(\d+):(\d+)\)?$/.exec(frame);
  return m ? [Number(m[1]), Number(m[2])] : [null, null];
}

function reply(message) {
  process.send(message, () => process.exit(0));
}

try {
  const mod = await import(new URL(`file://${bundle}`).href);
  const s = mod.strategy;
  if (!s || typeof s !== 'object') reply({ ok: false, message: 'exports no `strategy` object', line: null, column: null });
  else {
    // Functions are left out: the parent needs the declared fields, and whether run is a function.
    const fields = JSON.parse(JSON.stringify(s));
    reply({ ok: true, fields, hasRun: typeof s.run === 'function' });
  }
} catch (err) {
  const [line, column] = where(err);
  const denied = err?.code === 'ERR_ACCESS_DENIED';
  const message = denied
    ? `loading it needs a permission strategies of yours don't have (${err.permission ?? 'unknown'}${err.resource ? ` ${err.resource}` : ''})`
    : `${err?.name ?? 'Error'}: ${err?.message ?? String(err)}`;
  reply({ ok: false, message, line, column });
}
