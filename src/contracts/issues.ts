/**
 * Validation problems in words: one line per problem, naming the field, for
 * every place that checks input against a schema (configuration, payloads,
 * the review API).
 */
import type { z } from 'zod';

/** One line per problem: `safety.classifier_on_error: expected one of "quarantine"|"allow"`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const key = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((k) => `${[...issue.path, k].join('.')}: unknown key`).join('\n');
      }
      return `${key}: ${issue.message}`;
    })
    .join('\n');
}

/** The same on one line, for error messages and job failure reasons. */
export function formatIssuesInline(error: z.ZodError): string {
  return formatIssues(error).replace(/\n/g, '; ');
}
