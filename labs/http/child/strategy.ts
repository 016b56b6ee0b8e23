import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type { StrategyBase } from '../../types';
import type { Role } from '../shared/roles';

/** A row of the `author` table as the driver returns it. */
export interface AuthorRow {
  id: number;
  first_name: string;
  last_name: string;
  year_of_birth: number;
}

/** What the server under test hands a strategy for each request. */
export interface ServeContext {
  /** The server's pg.Pool (node-postgres defaults: at most 10 connections). */
  pool: pg.Pool;
  /** `SELECT id, first_name, last_name, year_of_birth FROM author_<rows> ORDER BY id`. */
  sql: string;
  /** Rows per `res.write` (the form's "rows per write"). */
  batchRows: number;
  /** Rows per cursor read (the form's "rows per cursor read"): one round trip to PostgreSQL each. */
  cursorRows: number;
  /** Counts rows written into the response (a sampler reading). */
  sent(rows: number): void;
}

/**
 * One way to answer `GET /authors` with every row of the table. Every file in strategies/ exports
 * one `strategy` of this shape; the load checks each body's rows and checksum in `format`.
 */
export interface Strategy extends StrategyBase {
  /** What it is there to show (shared/roles.ts): every strategy of this lab declares one. */
  role: Role;
  library: 'pg' | 'pg-query-stream';
  mode: 'push' | 'pull';
  /** What the body is: one JSON array, or one JSON object per line. */
  format: 'json-array' | 'ndjson';
  expects: {
    outcome: 'completed';
    /** Reads the whole result into the heap before writing (its peak heap grows with rows × clients). */
    wholeResultInHeap: boolean;
    /** Waits for 'drain': a slow client's socket buffer stays small. */
    respectsBackpressure: boolean;
  };
  run(req: IncomingMessage, res: ServerResponse, ctx: ServeContext): Promise<void>;
}
