/**
 * The streaming reader: the same answer whatever the chunking, strings decoded as JSON.parse
 * decodes them, a real snapshot read as JSON.parse reads it, and damaged files refused with a
 * message that says where.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSnapshotFile } from './snapshot-reader';
import { parseSnapshotText, snapshotJson, type TestNode } from './test-snapshot';

const NODES: TestNode[] = [
  {
    name: '',
    type: 'synthetic',
    edges: [
      ['shortcut', 'global', 'global'],
      ['element', 7, '(GC roots)'],
    ],
  },
  { name: '(GC roots)', type: 'synthetic' },
  {
    name: 'global',
    self: 40,
    edges: [
      ['property', 'quote"and\\backslash', 'é — ünïcode 😀'],
      ['property', 'line\nbreak\ttab\u0001', 'f'],
    ],
  },
  { name: 'é — ünïcode 😀', type: 'string', self: 4_294_967_296 + 5 },
  { name: 'f', type: 'closure', self: 64 },
];

describe('SnapshotReader', () => {
  const text = snapshotJson(NODES, [['f', 3, 11, 4]]);
  const whole = parseSnapshotText(text);

  it('reads nodes, edges, strings (escapes and UTF-8 included) and locations', () => {
    expect(whole.nodeCount).toBe(5);
    expect(whole.edgeCount).toBe(4);
    expect(whole.nodeTypeNames[whole.nodeType[3]]).toBe('string');
    expect(whole.strings[whole.nodeName[3]]).toBe('é — ünïcode 😀');
    // Past 4 GiB: self sizes are not squeezed into 32 bits.
    expect(whole.selfSize[3]).toBe(4_294_967_301);
    const names = Array.from(whole.edgeNameOrIndex.subarray(2, 4), (i) => whole.strings[i]);
    expect(names).toEqual(['quote"and\\backslash', 'line\nbreak\ttab\u0001']);
    expect(Array.from(whole.edgeTo)).toEqual([2, 1, 3, 4]);
    expect(Array.from(whole.locations)).toEqual([4, 3, 11, 4]);
  });

  it('gives the same answer whatever the chunk size, escapes and numbers cut in the middle included', () => {
    for (const chunk of [1, 2, 3, 7, 64]) expect(parseSnapshotText(text, chunk)).toEqual(whole);
    // Any whitespace and key order V8 might write (here: pretty-printed, strings first).
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const reordered = JSON.stringify({ strings: parsed.strings, ...parsed }, null, 2);
    expect({ ...parseSnapshotText(reordered, 5), fileBytes: whole.fileBytes }).toEqual(whole);
    // Keys it does not use are skipped, whatever their values.
    const extra = JSON.stringify({ x: 5, y: 'str"}]', z: [1, { a: [2] }], t: true, ...parsed, w: null, q: -7.5 });
    for (const chunk of [1, 3, 1 << 20]) expect({ ...parseSnapshotText(extra, chunk), fileBytes: whole.fileBytes }).toEqual(whole);
  });

  it('refuses damaged text, saying where', () => {
    expect(() => parseSnapshotText(text.slice(0, text.indexOf('"strings"') + 20))).toThrow(
      /^the file ends early \(truncated\?\) inside "strings" after \d+ strings/,
    );
    expect(() => parseSnapshotText(text.replace('"nodes":[', '"nodes":[x'))).toThrow(/^not a V8 heap snapshot: unexpected 'x' in "nodes" at byte \d+/);
    expect(() => parseSnapshotText(text.replace('"node_count":5,', '').replace(/"nodes":\[(\d+),/, '"nodes":[$1,9,'))).toThrow(/not a V8 heap snapshot/);
    expect(() => parseSnapshotText('{"snapshot":{"meta":{}},"nodes":[]}')).toThrow(/its "snapshot" header has no meta.node_fields/);
    expect(() => parseSnapshotText('{"snapshot": {"meta": ')).toThrow(/ends early \(truncated\?\) inside "snapshot"/);
    expect(() => parseSnapshotText('')).toThrow(/the file is empty/);
    expect(() => parseSnapshotText(`${text} {}`)).toThrow(/text after the end of the snapshot/);
  });

  it('reads real snapshot files (v8.writeHeapSnapshot, the inspector) as JSON.parse reads them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'heap-reader-'));
    try {
      const file = join(dir, 'bare.heapsnapshot');
      const made = spawnSync(process.execPath, ['-e', `require('node:v8').writeHeapSnapshot(${JSON.stringify(file)})`]);
      expect(made.status, String(made.stderr)).toBe(0);
      const d = readSnapshotFile(file);
      const raw = JSON.parse(readFileSync(file, 'utf8')) as { nodes: number[]; edges: number[]; strings: string[]; locations: number[] };
      const width = 7;
      expect(d.nodeCount).toBe(raw.nodes.length / width);
      expect(d.edgeCount).toBe(raw.edges.length / 3);
      expect(d.strings).toEqual(raw.strings);
      for (let i = 0; i < d.nodeCount; i += 97) {
        expect([d.nodeType[i], d.nodeName[i], d.nodeId[i], d.selfSize[i], d.nodeEdgeCount[i]]).toEqual(raw.nodes.slice(i * width, i * width + 5));
      }
      for (let e = 0; e < d.edgeCount; e += 89) expect([d.edgeType[e], d.edgeNameOrIndex[e], d.edgeTo[e] * width]).toEqual(raw.edges.slice(e * 3, e * 3 + 3));
      expect(d.locations.length).toBe(raw.locations.length);
      expect(d.locations[0] * width).toBe(raw.locations[0]);

      // The inspector's HeapProfiler.takeHeapSnapshot sends the same text in chunks: joined into a file, it reads the same way.
      const chunks = join(dir, 'inspector.heapsnapshot');
      const inspector = `const s = new (require('node:inspector').Session)(); s.connect();
const fs = require('node:fs'); const out = fs.openSync(${JSON.stringify(chunks)}, 'w');
s.on('HeapProfiler.addHeapSnapshotChunk', (m) => fs.writeSync(out, m.params.chunk));
s.post('HeapProfiler.takeHeapSnapshot', null, (err) => { if (err) throw err; fs.closeSync(out); s.disconnect(); });`;
      const sent = spawnSync(process.execPath, ['-e', inspector]);
      expect(sent.status, String(sent.stderr)).toBe(0);
      const fromInspector = readSnapshotFile(chunks);
      const rawChunks = JSON.parse(readFileSync(chunks, 'utf8')) as { nodes: number[]; edges: number[]; strings: string[] };
      expect(fromInspector.nodeCount).toBe(rawChunks.nodes.length / width);
      expect(fromInspector.edgeCount).toBe(rawChunks.edges.length / 3);
      expect(fromInspector.strings).toEqual(rawChunks.strings);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
