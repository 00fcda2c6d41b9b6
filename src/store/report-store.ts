/**
 * Final-report results, kept in Redis by report id and revision, written
 * once per revision (see write-once.ts). What is read back is validated
 * against the result's schema: publishers in other languages read the same
 * keys, and a value that does not match fails loudly here.
 */
import type { Redis } from 'ioredis';
import { ReportResultSchema, type ReportResult } from '../contracts/results.js';
import { contentKeyOf, writeOnce } from './write-once.js';

/** A revision's stored result, and the content digest it was recorded with (absent when none was). */
export interface StoredReport {
  result: ReportResult;
  content?: string | undefined;
}

export interface ReportStore {
  record(result: ReportResult): Promise<ReportResult>;
  /**
   * Stores the result of a report revision with the content digest of its
   * sections, unless the revision has one; `conflict` when the one it has is
   * of other content (docs/contract.md#a-revision-is-its-content).
   */
  recordRevision(result: ReportResult, content?: string): Promise<{ result: ReportResult; conflict: boolean }>;
  get(reportId: string, revision?: number): Promise<ReportResult | undefined>;
  /** A revision's result with its content digest. */
  getRecord(reportId: string, revision: number): Promise<StoredReport | undefined>;
}

const parse = (raw: string): ReportResult => ReportResultSchema.parse(JSON.parse(raw));

/** Redis keys of the report store (publishers read the content digest to refuse a conflict early). */
export function reportKeys(keyPrefix: string) {
  const latest = (id: string) => `${keyPrefix}:report:${encodeURIComponent(id)}`;
  const revision = (id: string, rev: number) => `${latest(id)}:rev:${rev}`;
  return { latest, revision, content: (id: string, rev: number) => contentKeyOf(revision(id, rev)) };
}

export function createReportStore(redis: Redis, keyPrefix: string): ReportStore {
  const keys = reportKeys(keyPrefix);
  const { latest } = keys;
  const revisionKey = keys.revision;
  return {
    async record(result) {
      return (await this.recordRevision(result)).result;
    },
    async recordRevision(result, content) {
      const target = {
        revisionKey: revisionKey(result.reportId, result.revision),
        latestKey: latest(result.reportId),
        revision: result.revision,
      };
      const found = await writeOnce(redis, target, JSON.stringify(result), content);
      if (found === undefined) return { result, conflict: false };
      return { result: parse(found.value), conflict: content !== undefined && found.content !== content };
    },
    async getRecord(reportId, revision) {
      const [raw, content] = await redis.mget(revisionKey(reportId, revision), keys.content(reportId, revision));
      if (raw === null || raw === undefined) return undefined;
      return { result: parse(raw), ...(content ? { content } : {}) };
    },
    async get(reportId, revision) {
      const raw = await redis.get(revision === undefined ? latest(reportId) : revisionKey(reportId, revision));
      return raw === null ? undefined : parse(raw);
    },
  };
}
