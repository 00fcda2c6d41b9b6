/**
 * Event ids name the event, its subject and the subject's version (and, for
 * one of several events of a kind, its index, or the short digest of the
 * content it is about): the same for every run of a job, which is what makes
 * emission idempotent (docs/contract.md).
 */

/** The version of a subject: a revision number (`r<n>`), or a goal's text digest as it is. */
export type SubjectVersion = number | { digest: string };

export function eventId(type: string, subjectId: string, version: SubjectVersion, index?: number | string): string {
  const v = typeof version === 'number' ? `r${version}` : version.digest;
  return `${type}/${encodeURIComponent(subjectId)}/${v}${index === undefined ? '' : `/${index}`}`;
}
