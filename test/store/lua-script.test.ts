/** Named script arguments: the layout in KEYS and ARGV, and the Lua that binds it, checked in real Redis. */
import { afterAll, describe, expect, it } from 'vitest';
import { defineScript } from '../../src/store/lua-script.js';
import { testRedis } from '../support/redis.js';

const redis = testRedis();
afterAll(() => redis.disconnect());

// Echoes what the body sees under each name, as JSON.
const ECHO = defineScript({
  keys: ['first', 'second'],
  keyLists: ['seen', 'more'],
  args: ['x', 'y'],
  argLists: { events: ['type', 'id'], writes: ['value'] },
  body: `
local function list(t) local out = {} for i, v in ipairs(t) do out[i] = v end return out end
local events = {}
for i, e in ipairs(ARG.events) do events[i] = e.type .. '/' .. e.id end
local writes = {}
for i, w in ipairs(ARG.writes) do writes[i] = w.value end
return {KEY.first, KEY.second, table.concat(list(KEY.seen), ','), table.concat(list(KEY.more), ','),
  ARG.x, ARG.y, table.concat(events, ','), table.concat(writes, ',')}
`,
});

const run = (...args: Array<string | number>) => redis.eval(ECHO.lua, ...(args as [number, ...string[]]));

describe('defineScript', () => {
  it('binds every key, argument and list by name, whatever the list lengths', async () => {
    for (const [seen, more, events, writes] of [
      [[], [], [], []],
      [['s1'], [], [{ type: 'a', id: '1' }], []],
      [
        ['s1', 's2', 's3'],
        ['m1', 'm2'],
        [
          { type: 'a', id: '1' },
          { type: 'b', id: '2' },
        ],
        [{ value: 'w' }],
      ],
    ] as const) {
      const layout = ECHO.layout({
        keys: { first: 'k1', second: 'k2' },
        keyLists: { seen, more },
        args: { x: 'ax', y: 7 },
        argLists: { events, writes },
      });
      expect(layout[0]).toBe(2 + seen.length + more.length);
      expect(await run(...layout)).toEqual([
        'k1',
        'k2',
        seen.join(','),
        more.join(','),
        'ax',
        '7',
        events.map((e) => `${e.type}/${e.id}`).join(','),
        writes.map((w) => w.value).join(','),
      ]);
    }
  });

  it('refuses a call that leaves a name out, and a name Lua cannot bind', () => {
    expect(() =>
      ECHO.layout({
        keys: { first: 'k1' } as never,
        keyLists: { seen: [], more: [] },
        args: { x: 'a', y: 'b' },
        argLists: { events: [], writes: [] },
      }),
    ).toThrow(/key second/);
    expect(() =>
      ECHO.layout({
        keys: { first: 'k1', second: 'k2' },
        keyLists: { seen: [], more: [] },
        args: { x: 'a', y: 'b' },
        argLists: { events: [{ type: 't' } as never], writes: [] },
      }),
    ).toThrow(/events\.id/);
    expect(() => defineScript({ keys: ['not-a-name'], args: [], body: '' })).toThrow(/Lua identifier/);
    expect(() => defineScript({ keys: ['a'], keyLists: ['a'], args: [], body: '' })).toThrow(/twice/);
  });
});
