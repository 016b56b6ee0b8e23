/** Flag parsing for the CLIs: every value is validated by the same schema the server uses. */
import { DEFAULT_PARAMS, LIMITS, rangeMessage, runParamsSchema, type RunParams } from '../../lib/params';
import { maxSizeMb } from '../data/data-files';
import { STRATEGY_IDS } from '../strategies/index';

export class UsageError extends Error {}

/** CLI flag → RunParams field. */
const NUMERIC_FLAGS = {
  '--size-mb': 'sizeMb',
  '--delay-ms': 'delayMs',
  '--cpu-us': 'cpuUs',
  '--chunk-kb': 'chunkKb',
  '--sample-ms': 'sampleMs',
  '--budget-mb': 'budgetMb',
  '--max-old-space-mb': 'maxOldSpaceMb',
  '--timeout-s': 'timeoutS',
  '--seed': 'seed',
} as const satisfies Record<string, keyof RunParams>;
/** Flags that also accept "off" (→ null). */
const NULLABLE = new Set(['--sample-ms', '--budget-mb', '--max-old-space-mb']);

export interface BenchArgs {
  strategies: string[];
  params: RunParams;
  json: boolean;
}

function flagFor(field: string): string {
  return Object.entries(NUMERIC_FLAGS).find(([, f]) => f === field)?.[0] ?? `--${field}`;
}

/** Parses bench flags; throws UsageError naming the flag and the allowed values. */
export function parseBenchArgs(argv: string[], defaults: Partial<RunParams> = {}): BenchArgs {
  const raw: Record<string, unknown> = { ...DEFAULT_PARAMS, ...defaults };
  let strategies: string[] = [...STRATEGY_IDS];
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if ((flag === '--json' || flag === '--retained') && inline !== undefined) {
      throw new UsageError(`${flag} takes no value (got "${inline}"); leave it out to turn it off`);
    }
    if (flag === '--json') json = true;
    else if (flag === '--retained') raw.retained = true;
    else if (flag === '--strategies') {
      const v = value();
      strategies = v === 'all' ? [...STRATEGY_IDS] : v.split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = strategies.filter((s) => !STRATEGY_IDS.includes(s));
      if (unknown.length || strategies.length === 0) {
        throw new UsageError(`--strategies: unknown strategy "${unknown.join(',')}"; allowed: all or a comma-separated list of ${STRATEGY_IDS.join(', ')}`);
      }
    } else if (flag in NUMERIC_FLAGS) {
      const field = NUMERIC_FLAGS[flag as keyof typeof NUMERIC_FLAGS];
      const v = value();
      if (v === 'off' && NULLABLE.has(flag)) raw[field] = null;
      else {
        const n = Number(v);
        const range = `${LIMITS[field].min}–${LIMITS[field].max}`;
        if (v.trim() === '' || !Number.isFinite(n)) {
          throw new UsageError(`${flag} must be a number (${range}${NULLABLE.has(flag) ? ' or off' : ''}), got "${v}"`);
        }
        raw[field] = n;
      }
    } else {
      throw new UsageError(
        `unknown flag ${flag}; allowed: --strategies, ${Object.keys(NUMERIC_FLAGS).join(', ')}, --retained, --json`,
      );
    }
  }
  const parsed = runParamsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${flagFor(String(issue.path[0]))}: ${issue.message}`);
  }
  // The schema allows up to the product's ceiling; this machine may be configured lower.
  const max = maxSizeMb();
  if (parsed.data.sizeMb > max) throw new UsageError(`--size-mb: ${rangeMessage('sizeMb', max)}`);
  return { strategies, params: parsed.data, json };
}
