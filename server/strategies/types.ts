import type { Readable } from 'node:stream';

/** What the child hands a strategy: the file stream and the slow consumer. */
export interface RunContext {
  /** `fs.createReadStream(file, { highWaterMark })`, not yet touched. */
  stream: Readable;
  /**
   * The slow consumer: waits `delayMs`, burns `cpuUs` of CPU, counts the chunk as processed and
   * returns `chunk.toString()`, like the article's `concatMap(async (data) => { await sleep(10); ... })`.
   */
  consume(chunk: Buffer): Promise<string>;
}

/** Where the article published a figure for this strategy (150 MB file, 10 ms per chunk, Node 20.11). */
export interface ArticleFigure {
  peakMb: string;
  note: string;
}

/** One streaming strategy. Every file in this folder exports one `strategy` of this shape. */
export interface Strategy {
  id: string;
  label: string;
  /** npm package name whose version is reported, or 'node' for built-ins. */
  library: 'rxjs' | 'ix' | 'iterator-helper' | 'node';
  mode: 'push' | 'pull';
  /** The strategy's code keeps every result until the end (toArray); the verdict needs to know, since default-mode heap growth is otherwise garbage. */
  keepsResults: boolean;
  explanation: string;
  article: ArticleFigure | null;
  run(ctx: RunContext): Promise<void>;
}
