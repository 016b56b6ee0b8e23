/** Every consumer kind of the streams lab, by the name the `consumer` param gives it. */
import type { ConsumerKind } from '../../shared/limits';
import { httpConsumer } from './http';
import { postgresConsumer } from './postgres';
import { sleepConsumer } from './sleep';
import type { ConsumerModule } from './types';

export const CONSUMER_MODULES: Record<ConsumerKind, ConsumerModule<unknown>> = {
  sleep: sleepConsumer,
  http: httpConsumer,
  postgres: postgresConsumer,
};
