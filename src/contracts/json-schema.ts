/**
 * JSON Schema documents generated from the zod schemas, for publishers and
 * consumers in other languages. schemas/ holds them; a test keeps it current.
 */
import { z } from 'zod';
import { EVENT_SCHEMAS, EventEntrySchema } from './events.js';
import { PAYLOAD_SCHEMAS } from './payloads.js';
import { RESULT_SCHEMAS } from './results.js';

export function jsonSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [queue, schema] of Object.entries(PAYLOAD_SCHEMAS)) {
    out[`payload.${queue}.json`] = { title: `${queue} job payload`, ...z.toJSONSchema(schema, { io: 'input' }) };
  }
  for (const [type, schema] of Object.entries(EVENT_SCHEMAS)) {
    out[`event.${type}.json`] = {
      title: `${type} event data (the JSON of the entry's data field)`,
      ...z.toJSONSchema(schema),
    };
  }
  out['event-entry.json'] = {
    title: 'an entry of the event stream: its fields (Redis Stream field-value pairs)',
    ...z.toJSONSchema(EventEntrySchema),
  };
  for (const [queue, schema] of Object.entries(RESULT_SCHEMAS)) {
    out[`result.${queue}.json`] = {
      title: `${queue} job result (the job's return value, and what the stores keep)`,
      ...z.toJSONSchema(schema),
    };
  }
  return out;
}
