/**
 * Reads a V8 .heapsnapshot file (what v8.writeHeapSnapshot() writes, or the inspector's
 * HeapProfiler chunks joined) into typed arrays, streaming: the file is read in 4 MiB chunks and
 * never held whole, so a snapshot of hundreds of MB (past V8's ~512 MB string limit) reads in
 * about as much memory as its numbers need.
 *
 * The format: one JSON object whose "snapshot" header describes the rows (meta.node_fields,
 * node_types, edge_fields, edge_types, location_fields) and counts them; "nodes" and "edges" are
 * flat arrays of integers, a row per node and per edge (a node's edges are the next edge_count
 * rows, in node order; an edge's to_node is the target's index in "nodes", i.e. ordinal × row
 * size); "locations" gives closures' (and some objects') source positions; "strings" holds every
 * name. V8 writes the keys in that order; the reader only needs "snapshot" before "nodes" and
 * "edges", skips keys it does not use (trace_tree, samples…), and tolerates any whitespace.
 *
 * Errors say what is wrong with the file ("ends early inside \"edges\"", "not a V8 heap
 * snapshot: …") so the caller can pass them on as they are.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The parsed snapshot. Node arrays are indexed by node ordinal, edge arrays by edge ordinal. */
export interface HeapSnapshotData {
  nodeTypeNames: string[];
  edgeTypeNames: string[];
  nodeCount: number;
  edgeCount: number;
  nodeType: Uint8Array;
  /** Index into strings. */
  nodeName: Uint32Array;
  nodeId: Uint32Array;
  /** Float64: a backing store's size may pass 4 GiB. */
  selfSize: Float64Array;
  nodeEdgeCount: Uint32Array;
  edgeType: Uint8Array;
  /** A string index for named edges, the index for element and hidden edges. */
  edgeNameOrIndex: Uint32Array;
  /** Target node ordinal. */
  edgeTo: Uint32Array;
  /** Rows of [node ordinal, script id, line, column] (V8's 0-based line and column). */
  locations: Uint32Array;
  strings: string[];
  fileBytes: number;
}

interface Meta {
  node_fields: string[];
  node_types: unknown[];
  edge_fields: string[];
  edge_types: unknown[];
  location_fields?: string[];
}

interface Header {
  meta: Meta;
  node_count?: number;
  edge_count?: number;
}

const CHUNK = 4 * 1024 * 1024;
/** Numbers are handed to a sink in batches: one tight loop parses, each sink splits rows in its own. */
const BATCH = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function describeByte(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16)}`;
}

export class SnapshotFormatError extends Error {}

function notSnapshot(why: string): SnapshotFormatError {
  return new SnapshotFormatError(`not a V8 heap snapshot: ${why}`);
}

/** Where numbers go: a sink for the rows of one array. */
interface NumberSink {
  take(batch: Float64Array, n: number): void;
}

/** Grows a typed array by doubling (when the header gave no count, or a wrong one). */
function grow<T extends Uint8Array | Uint32Array | Float64Array>(a: T, min: number): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(min, a.length * 2, 1024));
  next.set(a);
  return next;
}

/** Where each of `keys` sits in a row of snapshot.meta's `fields` (V8 may order or extend them). */
function fieldIndexes(fields: readonly string[], keys: readonly string[], what: string): number[] {
  return keys.map((k) => {
    const i = fields.indexOf(k);
    if (i < 0) throw notSnapshot(`snapshot.meta.${what} has no "${k}"`);
    return i;
  });
}

class NodeSink implements NumberSink {
  type: Uint8Array;
  name: Uint32Array;
  id: Uint32Array;
  self: Float64Array;
  edges: Uint32Array;
  count = 0;
  private field = 0;
  private readonly width: number;
  private readonly fType: number;
  private readonly fName: number;
  private readonly fId: number;
  private readonly fSelf: number;
  private readonly fEdges: number;

  constructor(meta: Meta, capacity: number) {
    const f = meta.node_fields;
    this.width = f.length;
    [this.fType, this.fName, this.fId, this.fSelf, this.fEdges] = fieldIndexes(f, ['type', 'name', 'id', 'self_size', 'edge_count'], 'node_fields');
    this.type = new Uint8Array(capacity);
    this.name = new Uint32Array(capacity);
    this.id = new Uint32Array(capacity);
    this.self = new Float64Array(capacity);
    this.edges = new Uint32Array(capacity);
  }

  take(batch: Float64Array, n: number): void {
    for (let i = 0; i < n; i++) {
      const v = batch[i];
      const f = this.field;
      const at = this.count;
      if (f === 0 && at === this.type.length) this.ensure(at + 1);
      if (f === this.fType) {
        if (v > 255) throw notSnapshot(`node type ${v} out of range`);
        this.type[at] = v;
      } else if (f === this.fName) this.name[at] = v;
      else if (f === this.fId) this.id[at] = v;
      else if (f === this.fSelf) this.self[at] = v;
      else if (f === this.fEdges) this.edges[at] = v;
      if (++this.field === this.width) {
        this.field = 0;
        this.count++;
      }
    }
  }

  /** Rows cut short mean a damaged file. */
  complete(): boolean {
    return this.field === 0;
  }

  private ensure(n: number): void {
    this.type = grow(this.type, n);
    this.name = grow(this.name, n);
    this.id = grow(this.id, n);
    this.self = grow(this.self, n);
    this.edges = grow(this.edges, n);
  }
}

class EdgeSink implements NumberSink {
  type: Uint8Array;
  nameOrIndex: Uint32Array;
  to: Uint32Array;
  count = 0;
  private field = 0;
  private readonly width: number;
  private readonly nodeWidth: number;
  private readonly fType: number;
  private readonly fName: number;
  private readonly fTo: number;

  constructor(meta: Meta, capacity: number) {
    const f = meta.edge_fields;
    this.width = f.length;
    this.nodeWidth = meta.node_fields.length;
    [this.fType, this.fName, this.fTo] = fieldIndexes(f, ['type', 'name_or_index', 'to_node'], 'edge_fields');
    this.type = new Uint8Array(capacity);
    this.nameOrIndex = new Uint32Array(capacity);
    this.to = new Uint32Array(capacity);
  }

  take(batch: Float64Array, n: number): void {
    for (let i = 0; i < n; i++) {
      const v = batch[i];
      const f = this.field;
      const at = this.count;
      if (f === 0 && at === this.type.length) {
        this.type = grow(this.type, at + 1);
        this.nameOrIndex = grow(this.nameOrIndex, at + 1);
        this.to = grow(this.to, at + 1);
      }
      if (f === this.fType) {
        if (v > 255) throw notSnapshot(`edge type ${v} out of range`);
        this.type[at] = v;
      } else if (f === this.fName) this.nameOrIndex[at] = v;
      else if (f === this.fTo) {
        if (v % this.nodeWidth !== 0) throw notSnapshot(`edge ${at} points into the middle of a node row (${v})`);
        this.to[at] = v / this.nodeWidth;
      }
      if (++this.field === this.width) {
        this.field = 0;
        this.count++;
      }
    }
  }

  complete(): boolean {
    return this.field === 0;
  }
}

/** Plain list of unsigned integers (locations). */
class ListSink implements NumberSink {
  values = new Uint32Array(1024);
  count = 0;
  take(batch: Float64Array, n: number): void {
    if (this.count + n > this.values.length) this.values = grow(this.values, this.count + n);
    for (let i = 0; i < n; i++) this.values[this.count++] = batch[i];
  }
}

const DISCARD: NumberSink = { take() {} };

/** One top-level value being read; `feed` returns where it stopped (the chunk's end, or just past the value). */
interface ValueReader {
  done: boolean;
  feed(buf: Buffer, i: number, end: number, offset: number): number;
  /** Where in the value the file ended, for the error message. */
  where(): string;
}

/** An array of non-negative integers, straight into a sink. */
class NumberArrayReader implements ValueReader {
  done = false;
  private started = false;
  private inNumber = false;
  private value = 0;
  private readonly batch = new Float64Array(BATCH);
  private n = 0;
  private total = 0;

  constructor(
    private readonly key: string,
    private readonly sink: NumberSink,
  ) {}

  feed(buf: Buffer, start: number, end: number, offset: number): number {
    const batch = this.batch;
    let i = start;
    if (!this.started) {
      while (i < end && isSpace(buf[i])) i++;
      if (i === end) return end;
      if (buf[i] !== LBRACKET) throw notSnapshot(`"${this.key}" is not an array (${describeByte(buf[i])} at byte ${offset + i})`);
      this.started = true;
      i++;
    }
    let value = this.value;
    let inNumber = this.inNumber;
    let n = this.n;
    for (; i < end; i++) {
      const c = buf[i];
      if (c >= 0x30 && c <= 0x39) {
        value = value * 10 + (c - 0x30);
        inNumber = true;
        continue;
      }
      if (inNumber) {
        batch[n++] = value;
        value = 0;
        inNumber = false;
        if (n === BATCH) {
          this.sink.take(batch, n);
          this.total += n;
          n = 0;
        }
      }
      if (c === COMMA || isSpace(c)) continue;
      if (c === RBRACKET) {
        this.sink.take(batch, n);
        this.total += n;
        this.n = 0;
        this.done = true;
        return i + 1;
      }
      throw notSnapshot(`unexpected ${describeByte(c)} in "${this.key}" at byte ${offset + i}`);
    }
    this.value = value;
    this.inNumber = inNumber;
    this.n = n;
    return end;
  }

  where(): string {
    return `inside "${this.key}" after ${this.total + this.n} numbers`;
  }
}

/**
 * Any JSON value, skipped or kept as text (the header). Tracks strings and nesting only; the kept
 * text is checked by JSON.parse afterwards.
 */
class RawValueReader implements ValueReader {
  done = false;
  private depth = 0;
  private started = false;
  private inString = false;
  private escape = false;
  private scalar = false;
  private readonly parts: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly key: string,
    private readonly keep: boolean,
  ) {}

  feed(buf: Buffer, start: number, end: number, offset: number): number {
    let i = start;
    if (!this.started) {
      while (i < end && isSpace(buf[i])) i++;
      if (i === end) return end;
      this.started = true;
      const c = buf[i];
      this.scalar = c !== LBRACE && c !== LBRACKET && c !== QUOTE;
      if (c === QUOTE) this.inString = true;
      else if (!this.scalar) this.depth = 1;
      this.keepBytes(buf, i, i + 1, offset);
      i++;
    }
    const from = i;
    for (; i < end; i++) {
      const c = buf[i];
      if (this.scalar) {
        if (c === COMMA || c === RBRACE || isSpace(c)) {
          this.keepBytes(buf, from, i, offset);
          this.done = true;
          return i;
        }
        continue;
      }
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === BACKSLASH) this.escape = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.depth === 0) return this.finish(buf, from, i + 1, offset);
        }
        continue;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === LBRACE || c === LBRACKET) this.depth++;
      else if (c === RBRACE || c === RBRACKET) {
        if (--this.depth === 0) return this.finish(buf, from, i + 1, offset);
      }
    }
    this.keepBytes(buf, from, end, offset);
    return end;
  }

  private finish(buf: Buffer, from: number, to: number, offset: number): number {
    this.keepBytes(buf, from, to, offset);
    this.done = true;
    return to;
  }

  private keepBytes(buf: Buffer, from: number, to: number, offset: number): void {
    if (!this.keep || to <= from) return;
    this.size += to - from;
    if (this.size > MAX_HEADER_BYTES) throw notSnapshot(`"${this.key}" is over ${MAX_HEADER_BYTES} bytes (at byte ${offset + to})`);
    this.parts.push(Buffer.from(buf.subarray(from, to)));
  }

  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }

  where(): string {
    return `inside "${this.key}"`;
  }
}

/** The "strings" array: each string decoded as it ends (JSON.parse only for those with escapes). */
class StringArrayReader implements ValueReader {
  done = false;
  readonly strings: string[] = [];
  private started = false;
  private inString = false;
  private escape = false;
  private hasEscape = false;
  private parts: Buffer[] = [];

  feed(buf: Buffer, start: number, end: number, offset: number): number {
    let i = start;
    if (!this.started) {
      while (i < end && isSpace(buf[i])) i++;
      if (i === end) return end;
      if (buf[i] !== LBRACKET) throw notSnapshot(`"strings" is not an array (${describeByte(buf[i])} at byte ${offset + i})`);
      this.started = true;
      i++;
    }
    while (i < end) {
      if (this.inString) {
        const from = i;
        let escape = this.escape;
        for (; i < end; i++) {
          const c = buf[i];
          if (escape) escape = false;
          else if (c === BACKSLASH) {
            escape = true;
            this.hasEscape = true;
          } else if (c === QUOTE) break;
        }
        this.escape = escape;
        if (i === end) {
          this.parts.push(Buffer.from(buf.subarray(from, end)));
          return end;
        }
        this.strings.push(this.decode(buf, from, i));
        this.inString = false;
        i++;
        continue;
      }
      const c = buf[i];
      if (c === QUOTE) {
        this.inString = true;
        this.hasEscape = false;
        this.escape = false;
      } else if (c === RBRACKET) {
        this.done = true;
        return i + 1;
      } else if (c !== COMMA && !isSpace(c)) throw notSnapshot(`unexpected ${describeByte(c)} in "strings" at byte ${offset + i}`);
      i++;
    }
    return end;
  }

  private decode(buf: Buffer, from: number, to: number): string {
    let text: string;
    if (this.parts.length > 0) {
      this.parts.push(buf.subarray(from, to));
      text = Buffer.concat(this.parts).toString('utf8');
      this.parts = [];
    } else text = buf.toString('utf8', from, to);
    if (!this.hasEscape) return text;
    try {
      return JSON.parse(`"${text}"`) as string;
    } catch {
      throw notSnapshot(`string ${this.strings.length} is not valid JSON`);
    }
  }

  where(): string {
    return `inside "strings" after ${this.strings.length} strings`;
  }
}

type TopState = 'start' | 'key-or-end' | 'key' | 'colon' | 'value' | 'comma-or-end' | 'done';

/** The streaming reader: push chunks in order, then finish(). Usable on its own in tests (one push of the whole text). */
export class SnapshotReader {
  private state: TopState = 'start';
  private offset = 0;
  private keyParts: number[] = [];
  private key = '';
  private reader: ValueReader | null = null;
  private header: Header | null = null;
  private nodes: NodeSink | null = null;
  private edges: EdgeSink | null = null;
  private readonly locations = new ListSink();
  private strings: StringArrayReader | null = null;
  private locationWidth = 4;
  private readonly seen = new Set<string>();

  push(buf: Buffer): void {
    const end = buf.length;
    let i = 0;
    while (i < end) {
      if (this.state === 'value') {
        const reader = this.reader!;
        i = reader.feed(buf, i, end, this.offset);
        if (reader.done) this.valueDone(reader);
        continue;
      }
      const c = buf[i];
      if (this.state === 'key') {
        if (c === QUOTE) {
          this.key = String.fromCharCode(...this.keyParts);
          this.keyParts = [];
          this.state = 'colon';
        } else if (this.keyParts.length < 256) this.keyParts.push(c);
        else throw notSnapshot(`a key at byte ${this.offset + i} is too long`);
        i++;
        continue;
      }
      if (isSpace(c)) {
        i++;
        continue;
      }
      switch (this.state) {
        case 'start':
          if (c !== LBRACE) throw notSnapshot(`expected '{' at byte ${this.offset + i}, found ${describeByte(c)}`);
          this.state = 'key-or-end';
          break;
        case 'key-or-end':
          if (c === QUOTE) this.state = 'key';
          else if (c === RBRACE) this.state = 'done';
          else throw notSnapshot(`expected a key at byte ${this.offset + i}, found ${describeByte(c)}`);
          break;
        case 'colon':
          if (c !== COLON) throw notSnapshot(`expected ':' after "${this.key}" at byte ${this.offset + i}`);
          this.reader = this.readerFor(this.key);
          this.state = 'value';
          break;
        case 'comma-or-end':
          if (c === COMMA) this.state = 'key-or-end';
          else if (c === RBRACE) this.state = 'done';
          else throw notSnapshot(`expected ',' or '}' at byte ${this.offset + i}, found ${describeByte(c)}`);
          break;
        case 'done':
          throw notSnapshot(`text after the end of the snapshot at byte ${this.offset + i}`);
      }
      i++;
    }
    this.offset += end;
  }

  private readerFor(key: string): ValueReader {
    this.seen.add(key);
    switch (key) {
      case 'snapshot':
        return new RawValueReader(key, true);
      case 'nodes': {
        const header = this.requireHeader(key);
        this.nodes = new NodeSink(header.meta, header.node_count ?? 0);
        return new NumberArrayReader(key, this.nodes);
      }
      case 'edges': {
        const header = this.requireHeader(key);
        this.edges = new EdgeSink(header.meta, header.edge_count ?? 0);
        return new NumberArrayReader(key, this.edges);
      }
      case 'locations':
        return new NumberArrayReader(key, this.locations);
      case 'strings':
        this.strings = new StringArrayReader();
        return this.strings;
      case 'samples':
      case 'trace_function_infos':
        return new NumberArrayReader(key, DISCARD);
      default:
        return new RawValueReader(key, false);
    }
  }

  private requireHeader(key: string): Header {
    if (!this.header) throw notSnapshot(`"${key}" comes before the "snapshot" header`);
    return this.header;
  }

  private valueDone(reader: ValueReader): void {
    if (this.key === 'snapshot') this.header = parseHeader((reader as RawValueReader).text());
    if (this.key === 'locations' && this.header?.meta.location_fields) this.locationWidth = this.header.meta.location_fields.length;
    this.reader = null;
    this.state = 'comma-or-end';
  }

  finish(fileBytes = this.offset): HeapSnapshotData {
    if (this.offset === 0) throw new SnapshotFormatError('the file is empty');
    if (this.state !== 'done') {
      const where = this.state === 'value' && this.reader ? this.reader.where() : `after "${this.key}"`;
      throw new SnapshotFormatError(`the file ends early (truncated?) ${where}, at byte ${this.offset}`);
    }
    const header = this.header;
    if (!header) throw notSnapshot('no "snapshot" header');
    for (const k of ['nodes', 'edges', 'strings']) if (!this.seen.has(k)) throw notSnapshot(`no "${k}" array`);
    const nodes = this.nodes!;
    const edges = this.edges!;
    if (!nodes.complete() || !edges.complete()) throw notSnapshot('"nodes" or "edges" ends in the middle of a row');
    const data: HeapSnapshotData = {
      nodeTypeNames: typeNames(header.meta.node_types, header.meta.node_fields, 'node'),
      edgeTypeNames: typeNames(header.meta.edge_types, header.meta.edge_fields, 'edge'),
      nodeCount: nodes.count,
      edgeCount: edges.count,
      nodeType: nodes.type.subarray(0, nodes.count),
      nodeName: nodes.name.subarray(0, nodes.count),
      nodeId: nodes.id.subarray(0, nodes.count),
      selfSize: nodes.self.subarray(0, nodes.count),
      nodeEdgeCount: nodes.edges.subarray(0, nodes.count),
      edgeType: edges.type.subarray(0, edges.count),
      edgeNameOrIndex: edges.nameOrIndex.subarray(0, edges.count),
      edgeTo: edges.to.subarray(0, edges.count),
      locations: this.locationRows(header),
      strings: this.strings!.strings,
      fileBytes,
    };
    check(data);
    return data;
  }

  /** Locations as [node ordinal, script id, line, column] rows, whatever order the header gives. */
  private locationRows(header: Header): Uint32Array {
    const fields = header.meta.location_fields ?? ['object_index', 'script_id', 'line', 'column'];
    const width = this.locationWidth;
    const idx = ['object_index', 'script_id', 'line', 'column'].map((k) => fields.indexOf(k));
    const rows = Math.floor(this.locations.count / width);
    if (idx.some((k) => k < 0) || rows === 0) return new Uint32Array(0);
    const nodeWidth = header.meta.node_fields.length;
    const src = this.locations.values;
    const out = new Uint32Array(rows * 4);
    for (let r = 0; r < rows; r++) {
      out[r * 4] = src[r * width + idx[0]] / nodeWidth;
      out[r * 4 + 1] = src[r * width + idx[1]];
      out[r * 4 + 2] = src[r * width + idx[2]];
      out[r * 4 + 3] = src[r * width + idx[3]];
    }
    return out;
  }
}

function parseHeader(text: string): Header {
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch {
    throw notSnapshot('its "snapshot" header is not valid JSON');
  }
  const meta = (header as { meta?: Partial<Meta> } | null)?.meta;
  if (!meta || !Array.isArray(meta.node_fields) || !Array.isArray(meta.edge_fields) || !Array.isArray(meta.node_types) || !Array.isArray(meta.edge_types)) {
    throw notSnapshot('its "snapshot" header has no meta.node_fields / edge_fields / node_types / edge_types');
  }
  return header as Header;
}

/** The names of the type field's values (meta.node_types[i] is an array for the enum field "type"). */
function typeNames(types: unknown[], fields: string[], what: string): string[] {
  const names = types[fields.indexOf('type')];
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) throw notSnapshot(`meta.${what}_types has no list of type names`);
  return names as string[];
}

/** The cross-references must hold before any algorithm trusts them: a damaged file fails here, clearly. */
function check(d: HeapSnapshotData): void {
  if (d.nodeCount === 0) throw notSnapshot('it has no nodes');
  let edges = 0;
  for (let i = 0; i < d.nodeCount; i++) {
    edges += d.nodeEdgeCount[i];
    if (d.nodeName[i] >= d.strings.length) throw notSnapshot(`node ${i} names string ${d.nodeName[i]} of ${d.strings.length}`);
    if (d.nodeType[i] >= d.nodeTypeNames.length) throw notSnapshot(`node ${i} has type ${d.nodeType[i]} of ${d.nodeTypeNames.length}`);
  }
  if (edges !== d.edgeCount) throw notSnapshot(`the nodes count ${edges} edges but "edges" has ${d.edgeCount}`);
  // Element and hidden edges carry an index, the others a string.
  const indexed = d.edgeTypeNames.map((t) => t === 'element' || t === 'hidden');
  for (let e = 0; e < d.edgeCount; e++) {
    if (d.edgeTo[e] >= d.nodeCount) throw notSnapshot(`edge ${e} points to node ${d.edgeTo[e]} of ${d.nodeCount}`);
    const t = d.edgeType[e];
    if (t >= d.edgeTypeNames.length) throw notSnapshot(`edge ${e} has type ${t} of ${d.edgeTypeNames.length}`);
    if (!indexed[t] && d.edgeNameOrIndex[e] >= d.strings.length) throw notSnapshot(`edge ${e} names string ${d.edgeNameOrIndex[e]} of ${d.strings.length}`);
  }
  for (let r = 0; r < d.locations.length; r += 4) if (d.locations[r] >= d.nodeCount) throw notSnapshot(`location ${r / 4} names node ${d.locations[r]}`);
}

/** Reads and parses a snapshot file in chunks. */
export function readSnapshotFile(file: string): HeapSnapshotData {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const reader = new SnapshotReader();
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      reader.push(n === CHUNK ? buf : buf.subarray(0, n));
    }
    return reader.finish(size);
  } finally {
    closeSync(fd);
  }
}
