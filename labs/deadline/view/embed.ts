/** The deadlines walkthrough's first step as an experiment embed link (/embed/experiment, docs/embedding.md). Pure. */
import { formToQuery, formValuesFromParams } from '../../../lib/form/experiment-form';
import { DEADLINE_LESSON_STEPS } from './steps';
import { LAB_ID } from '../shared/id';

/** "/embed/experiment?lab=deadline&strategies=unbounded,worker-pool&…": step 1's preset, Start button included. */
export function deadlineEmbedHref(): string {
  const preset = DEADLINE_LESSON_STEPS[0].presets[0];
  return `/embed/experiment?${formToQuery(formValuesFromParams(preset.params, preset.strategies, false, LAB_ID))}`;
}
