/**
 * Other content under a review's or a report's revision that has a result:
 * announced once per content (revision_conflict), and the job fails for
 * good, so that neither the stored result (another text's check) nor its
 * events stand for it (docs/contract.md#a-revision-is-its-content). Nothing
 * is held: no person reviews a review or a report, and the job's data keeps
 * what it carried. A hypothesis's conflict is kept for review in the verdict
 * store's own script (VerdictStore.recordConflict).
 */
import type { Logger } from 'pino';
import { shortDigest } from '../contracts/content.js';
import type { RevisionConflictData } from '../contracts/events.js';
import { RevisionConflictError } from '../errors.js';
import type { EventEmitter } from '../events/emitter.js';
import { eventId } from '../events/event-id.js';

export interface RevisionConflict {
  target: 'review' | 'report';
  id: string;
  revision: number;
  hypothesisId?: string | undefined;
  content: string;
  storedContent?: string | undefined;
}

export async function refuseRevisionConflict(
  deps: { emitter: EventEmitter; logger: Logger },
  conflict: RevisionConflict,
): Promise<never> {
  const { target, id, revision, hypothesisId, content, storedContent } = conflict;
  const data: RevisionConflictData = {
    target,
    id,
    revision,
    ...(hypothesisId === undefined ? {} : { hypothesisId }),
    content,
    ...(storedContent === undefined ? {} : { storedContent }),
    held: false,
  };
  await deps.emitter.emit('revision_conflict', eventId('revision_conflict', id, revision, shortDigest(content)), data);
  deps.logger.warn(
    { target, id, revision, content, storedContent },
    'revision conflict: other content published under a revision that has a result',
  );
  throw new RevisionConflictError(
    `${target} ${id} revision ${revision} was published before with other content; ` +
      `its stored result is not about this content: publish it as a new revision`,
  );
}
