/** A lab's summary schema from its schema: the common part, its params and its own figures, told apart by `lab`. */
import { z } from 'zod';
import { commonSummaryShape } from '../lib/protocol/common';

export function summaryOf<const Id extends string, P extends z.ZodObject, F extends z.ZodRawShape>(lab: { id: Id; params: P; figures: F }) {
  return z.object({ ...commonSummaryShape, lab: z.literal(lab.id), params: lab.params }).extend(lab.figures);
}
