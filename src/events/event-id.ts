/**
 * Event ids name the event, its subject and the subject's revision (and, for
 * one of several events of a kind, its index): the same for every run of a
 * job, which is what makes emission idempotent (docs/contract.md).
 */
export function eventId(type: string, subjectId: string, revision: number, index?: number): string {
  return `${type}/${encodeURIComponent(subjectId)}/r${revision}${index === undefined ? '' : `/${index}`}`;
}
