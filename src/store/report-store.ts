/**
 * Final-report results, kept in Redis by report id and revision, written
 * once per revision (see write-once.ts). What is read back is validated
 * against the result's schema: publishers in other languages read the same
 * keys, and a value that does not match fails loudly here.
 */
import type { Redis } from 'ioredis';
import { ReportResultSchema, type ReportResult } from '../contracts/results.js';
import { writeOnce } from './write-once.js';

export interface ReportStore {
  record(result: ReportResult): Promise<ReportResult>;
  get(reportId: string, revision?: number): Promise<ReportResult | undefined>;
}

const parse = (raw: string): ReportResult => ReportResultSchema.parse(JSON.parse(raw));

export function createReportStore(redis: Redis, keyPrefix: string): ReportStore {
  const latest = (id: string) => `${keyPrefix}:report:${encodeURIComponent(id)}`;
  const revisionKey = (id: string, revision: number) => `${latest(id)}:rev:${revision}`;
  return {
    async record(result) {
      const target = {
        revisionKey: revisionKey(result.reportId, result.revision),
        latestKey: latest(result.reportId),
        revision: result.revision,
      };
      const stored = await writeOnce(redis, target, JSON.stringify(result));
      return stored === undefined ? result : parse(stored);
    },
    async get(reportId, revision) {
      const raw = await redis.get(revision === undefined ? latest(reportId) : revisionKey(reportId, revision));
      return raw === null ? undefined : parse(raw);
    },
  };
}
