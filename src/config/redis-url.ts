/**
 * The form of `redis.url`: a redis:// or rediss:// URL with a host, and a
 * database, when it names one, given as the path (`/3`). ioredis reads the
 * database from the path (or, without one, from `?db=`) and sends SELECT
 * with whatever it finds; when that fails it goes on in database 0, so a
 * database that is not a whole number is refused here, before any
 * connection, and so is any but 0 with Redis Cluster, which has no other
 * (src/config/schema.ts). Whether the server has it (its `databases`
 * setting, 16 by default) is known only once connected:
 * src/queues/connection.ts asks.
 */

/** The URLs of `redis.url`: one, or with `cluster` several separated by commas. */
export function redisUrls(url: string): string[] {
  return url.split(',').map((u) => u.trim());
}

const BAD_URL =
  'expected a redis:// or rediss:// URL, such as redis://127.0.0.1:6379 (with cluster, several, comma-separated)';

/** What is wrong with one URL's form, in words that never echo it (it may hold a password); undefined when nothing is. */
export function redisUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return BAD_URL;
  }
  if ((parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || parsed.hostname === '') return BAD_URL;
  if (parsed.searchParams.has('db'))
    return 'give the database as the path of the URL (redis://host:6379/2), not as ?db=';
  const db = databaseOf(parsed);
  if (db === undefined) {
    // The path carries no secret: it is the part that is wrong, and shown.
    return `the path of the URL names the database, a whole number such as /0 or /2; got '${parsed.pathname}'`;
  }
  return undefined;
}

/** The database a URL names: 0 without a path; undefined for a path that is not a whole number. */
export function redisDatabase(url: string): number | undefined {
  try {
    return databaseOf(new URL(url));
  } catch {
    return undefined;
  }
}

/** Redis takes a database index as a signed 32-bit number; more digits than that are no database. */
const MAX_DATABASE = 2 ** 31 - 1;

function databaseOf(url: URL): number | undefined {
  if (url.pathname === '' || url.pathname === '/') return 0;
  const match = /^\/(\d{1,10})$/.exec(url.pathname);
  const db = match ? Number(match[1]) : Number.NaN;
  return db <= MAX_DATABASE ? db : undefined;
}
