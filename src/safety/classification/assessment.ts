/**
 * The classifier's assessment: what the model returns through the forced
 * tool call, validated before anything acts on it. Malformed output is an
 * error, never a pass.
 */
import { z } from 'zod';
import { CATEGORIES } from './categories.js';

export const AssessmentSchema = z.strictObject({
  categories: z.array(z.enum(CATEGORIES)).min(1).max(CATEGORIES.length),
  confidence: z.number().min(0).max(1),
  rationale: z.string().max(4000),
});
export type Assessment = z.infer<typeof AssessmentSchema>;

/** Categories that flag something: all but `none`. */
export function flaggedCategories(assessment: Pick<Assessment, 'categories'>): string[] {
  return [...new Set(assessment.categories.filter((c) => c !== 'none'))];
}
