/**
 * The stream-modes probe: touches a fresh file stream in each case's way and reads
 * `readable.readableFlowing` right after, like the article's s0–s7 program. Forked by modes.ts as
 * `node modes-probe.mjs <file>`; prints one JSON object on stdout and exits.
 *
 * Plain JavaScript on purpose: the code the page shows is `run.toString()` of each case below, so it
 * is exactly the code that was measured, with no compiler in between.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const file = process.argv[2];
if (!file) {
  console.error('usage: node modes-probe.mjs <file>');
  process.exit(2);
}

// #region helpers
const nothing = () => {};
const devNull = () => createWriteStream('/dev/null');
// Never finishes a write: its buffer is full after the first chunk, so the source must wait.
const stuck = () => new Writable({ highWaterMark: 1, write() {} });
// #endregion helpers

/**
 * Each case gets `s = createReadStream(file)`, does its one thing, and is measured when `run`
 * returns (or its promise settles). `article` is the article's row (Node 20.11) where it has one.
 */
const CASES = [
  {
    id: 'fresh',
    article: { label: 's0', flowing: null },
    title: 'Freshly created',
    explanation: 'No way of consuming the data has been chosen yet, so the stream is in neither mode and reads nothing.',
    run: (s) => {
      // nothing: just created
    },
  },
  {
    id: 'on-data',
    article: { label: 's1', flowing: true },
    title: "on('data')",
    explanation: "Attaching a 'data' listener switches the stream to flowing: chunks are pushed to the listener as fast as they are read.",
    run: (s) => {
      s.on('data', nothing);
    },
  },
  {
    id: 'add-listener-data',
    article: { label: 's2', flowing: true },
    title: "addListener('data')",
    explanation: 'addListener is the same method as on, so it switches to flowing too.',
    run: (s) => {
      s.addListener('data', nothing);
    },
  },
  {
    id: 'readable-listener',
    article: { label: 's2a', flowing: false },
    title: "Only a 'readable' listener",
    explanation: "A 'readable' listener puts the stream in paused mode: it says data is ready, and the code calls read() when it wants it.",
    run: (s) => {
      s.on('readable', nothing);
    },
  },
  {
    id: 'resume',
    article: { label: 's3', flowing: true },
    title: 'resume()',
    explanation: 'resume() switches to flowing explicitly; with no listener the data is simply dropped.',
    run: (s) => {
      s.resume();
    },
  },
  {
    id: 'pipe',
    article: { label: 's4', flowing: true },
    title: 'pipe()',
    explanation: 'pipe() attaches a data listener and resumes, so the stream starts flowing; it pauses later only if the destination fills up.',
    run: (s) => {
      s.pipe(devNull());
    },
  },
  {
    id: 'pipeline',
    article: { label: 's5', flowing: true },
    title: 'pipeline()',
    explanation: 'pipeline() pipes under the hood, so it starts flowing the same way, and also forwards errors and cleans up.',
    run: (s) => {
      pipeline(s, devNull());
    },
  },
  {
    id: 'pause',
    article: { label: 's6', flowing: false },
    title: 'pause()',
    explanation: 'pause() switches to paused explicitly: data stays in the internal buffer until someone reads or resumes.',
    run: (s) => {
      s.pause();
    },
  },
  {
    id: 'async-iterator',
    article: { label: 's7', flowing: false },
    title: 'Async iterator next()',
    explanation: "The async iterator reads in paused mode (it listens for 'readable' and calls read()), so for await pulls one chunk at a time.",
    run: (s) => {
      s[Symbol.asyncIterator]().next();
    },
  },
  {
    id: 'read-loop',
    article: null,
    title: 'readable.read() in a loop',
    explanation: "The classic paused-mode consumer: wait for 'readable', then read() until it returns null. The stream never flows.",
    run: (s) => {
      s.on('readable', () => {
        while (s.read() !== null) {
          // take every buffered chunk
        }
      });
    },
  },
  {
    id: 'read-only',
    article: null,
    title: 'read() with no listener',
    explanation: "Calling read() by itself does not choose a mode: only 'data'/'readable' listeners, pipe, resume, pause and unpipe do.",
    run: (s) => {
      s.read();
    },
  },
  {
    id: 'unpipe',
    article: null,
    title: 'pipe() then unpipe()',
    explanation: 'Removing the last pipe destination switches the stream back to paused, so nothing is lost while no one reads.',
    run: (s) => {
      const w = devNull();
      s.pipe(w);
      s.unpipe(w);
    },
  },
  {
    id: 'remove-data-listener',
    article: null,
    title: "Removing the only 'data' listener",
    explanation: "Taking the 'data' listener away does not pause the stream: it keeps flowing and the chunks are dropped.",
    run: (s) => {
      s.on('data', nothing);
      s.off('data', nothing);
    },
  },
  {
    id: 'pause-then-data',
    article: null,
    title: "pause() then on('data')",
    explanation: "A 'data' listener starts the flow only if the stream was not explicitly paused; after pause() it needs resume().",
    run: (s) => {
      s.pause();
      s.on('data', nothing);
    },
  },
  {
    id: 'readable-and-data',
    article: null,
    title: "Both 'readable' and 'data' listeners",
    explanation: "'readable' takes precedence: the stream stays paused and 'data' fires only when read() is called.",
    run: (s) => {
      s.on('readable', nothing);
      s.on('data', nothing);
    },
  },
  {
    id: 'resume-with-readable',
    article: null,
    title: "resume() with a 'readable' listener",
    explanation: "resume() has no effect while a 'readable' listener is attached: the stream stays paused.",
    run: (s) => {
      s.on('readable', nothing);
      s.resume();
    },
  },
  {
    id: 'pipe-backpressure',
    article: null,
    title: 'pipe() into a full destination',
    explanation: "This is backpressure: when the destination's write() returns false, pipe pauses the source until 'drain'.",
    run: async (s) => {
      s.pipe(stuck());
      await once(s, 'pause');
    },
  },
  {
    id: 'pipeline-backpressure',
    article: null,
    title: 'pipeline() into a full destination',
    explanation: 'pipeline() applies the same backpressure: flowing while the destination keeps up, paused while it is full.',
    run: async (s) => {
      pipeline(s, stuck());
      await once(s, 'pause');
    },
  },
];

/** A case's code as shown: the body of its `run`, de-indented. */
function codeOf(fn) {
  const source = fn.toString();
  const body = source.slice(source.indexOf('{') + 1, source.lastIndexOf('}'));
  const lines = body.split('\n').filter((line, i, all) => line.trim() !== '' || (i > 0 && i < all.length - 1));
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines
    .map((l) => l.slice(indent))
    .join('\n')
    .trim();
}

function helpersCode() {
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  const start = source.indexOf('// #region helpers');
  return source.slice(source.indexOf('\n', start) + 1, source.indexOf('// #endregion helpers')).trimEnd();
}

// The harness destroys every stream right after measuring it, which rejects pipeline()'s promise
// with ERR_STREAM_PREMATURE_CLOSE. That is the harness's doing, not the case's, so it is ignored.
process.on('unhandledRejection', nothing);

const MEASURE_TIMEOUT_MS = 5000;

async function measure(c) {
  const s = createReadStream(file);
  try {
    const done = Promise.resolve(c.run(s));
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result after ${MEASURE_TIMEOUT_MS} ms`)), MEASURE_TIMEOUT_MS);
    });
    await Promise.race([done, timeout]).finally(() => clearTimeout(timer));
    return { flowing: s.readableFlowing, error: null };
  } catch (err) {
    return { flowing: s.readableFlowing, error: err instanceof Error ? err.message : String(err) };
  } finally {
    s.destroy();
  }
}

const cases = [];
// One at a time: each measurement must see only its own stream's state.
for (const c of CASES) {
  const { flowing, error } = await measure(c);
  cases.push({ id: c.id, title: c.title, explanation: c.explanation, article: c.article, code: codeOf(c.run), flowing, error });
}
process.stdout.write(`${JSON.stringify({ nodeVersion: process.versions.node, helpers: helpersCode(), cases })}\n`);
// Destinations such as the stuck Writable keep nothing alive, but don't depend on it.
process.exit(0);
