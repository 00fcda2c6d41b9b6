/**
 * Final-report results, kept in Redis by report id and revision, written
 * once per revision (see write-once.ts).
 */
import type { Redis } from 'ioredis';
import type { ReportResult } from '../processors/report-processor.js';
import { writeOnce } from './write-once.js';

export interface ReportStore {
  record(result: ReportResult): Promise<ReportResult>;
  get(reportId: string, revision?: number): Promise<ReportResult | undefined>;
}

export function createReportStore(redis: Redis, keyPrefix: string): ReportStore {
  const latest = (id: string) => `${keyPrefix}:report:${encodeURIComponent(id)}`;
  const revisionKey = (id: string, revision: number) => `${latest(id)}:rev:${revision}`;
  return {
    async record(result) {
      const stored = await writeOnce(
        redis,
        revisionKey(result.reportId, result.revision),
        latest(result.reportId),
        JSON.stringify(result),
      );
      return stored === undefined ? result : (JSON.parse(stored) as ReportResult);
    },
    async get(reportId, revision) {
      const raw = await redis.get(revision === undefined ? latest(reportId) : revisionKey(reportId, revision));
      return raw === null ? undefined : (JSON.parse(raw) as ReportResult);
    },
  };
}
