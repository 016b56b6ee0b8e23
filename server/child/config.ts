/** The child's own check of the config it was started with (see check-config.ts for why not zod). */
import { booleanAt, numberAt, objectAt, stringAt } from './check-config';
import type { ChildConfig } from './protocol';

/** Only modules of the child build: a lab's scenario or one of its strategies. */
const MODULE_PATTERN = /^labs\/[a-z0-9-]+\/child\/(scenario|strategies\/[A-Za-z0-9-]+)$/;
/** A strategy: one of the build's, or a strategy of yours, bundled under .build/user/ and named by its hash. */
const STRATEGY_PATTERN = /^(labs\/[a-z0-9-]+\/child\/strategies\/[A-Za-z0-9-]+|user\/[0-9a-f]{64})$/;

/** Parses argv's JSON into a ChildConfig, or throws a ConfigError naming the field. */
export function parseChildConfig(raw: string | undefined): ChildConfig {
  let value: unknown;
  try {
    value = JSON.parse(raw ?? '');
  } catch {
    throw new Error('config: the child was started without a JSON config argument');
  }
  const obj = objectAt(value, 'config');
  return {
    scenarioModule: stringAt(obj, 'scenarioModule', MODULE_PATTERN),
    strategyModule: stringAt(obj, 'strategyModule', STRATEGY_PATTERN),
    scenario: objectAt(obj.scenario, 'scenario'),
    sampleMs: numberAt(obj, 'sampleMs', 10, 1000, { int: true, nullable: true }),
    retained: booleanAt(obj, 'retained'),
    ...(obj.profile !== undefined && { profile: booleanAt(obj, 'profile') }),
    ...(obj.guard !== undefined && { guard: booleanAt(obj, 'guard') }),
    ...(obj.heapWatch !== undefined && { heapWatch: booleanAt(obj, 'heapWatch') }),
  };
}
