/**
 * Final-report results, kept in Redis by report id and revision. The first
 * result of a revision is the one its events carry: a job that runs again
 * reuses it.
 */
import type { Redis } from 'ioredis';
import type { ReportResult } from '../processors/report-processor.js';

const RECORD = `
local existing = redis.call('GET', KEYS[1])
if existing then return existing end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[1])
return ARGV[1]
`;

export interface ReportStore {
  record(result: ReportResult): Promise<ReportResult>;
  get(reportId: string, revision?: number): Promise<ReportResult | undefined>;
}

export function createReportStore(redis: Redis, keyPrefix: string): ReportStore {
  const latest = (id: string) => `${keyPrefix}:report:${encodeURIComponent(id)}`;
  const revisionKey = (id: string, revision: number) => `${latest(id)}:rev:${revision}`;
  return {
    async record(result) {
      const stored = (await redis.eval(
        RECORD,
        2,
        revisionKey(result.reportId, result.revision),
        latest(result.reportId),
        JSON.stringify(result),
      )) as string;
      return JSON.parse(stored) as ReportResult;
    },
    async get(reportId, revision) {
      const raw = await redis.get(revision === undefined ? latest(reportId) : revisionKey(reportId, revision));
      return raw === null ? undefined : (JSON.parse(raw) as ReportResult);
    },
  };
}
