/**
 * Each lab's experiment form (labs/<lab>/shared/form.ts, found through the lab's schema), and the
 * frame every form is made of (form-spec.ts). The ranges are the labs' own, so the form refuses
 * exactly what the server would.
 */
import { labSchema } from '../../labs/schemas';
import type { PageLabId } from '../labs';
import type { LabForm } from './form-spec';

export * from './form-spec';

/** The form of a lab. */
export function formOf(lab: PageLabId): LabForm {
  const schema = labSchema(lab);
  if (!schema) throw new RangeError(`no such lab: ${lab}`);
  return schema.form;
}
