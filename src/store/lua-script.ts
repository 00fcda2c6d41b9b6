/**
 * Lua scripts with named arguments. Redis hands a script two flat arrays,
 * KEYS and ARGV; a script that takes lists (events, cache writes) would have
 * to find each value by arithmetic on their lengths, which is where
 * off-by-one bugs hide. Here a script declares its keys and arguments by
 * name, lists included; `defineScript` lays the values out in KEYS and ARGV
 * and prefixes the body with Lua that binds them to `KEY.<name>` and
 * `ARG.<name>` (a list of keys to `KEY.<name>[i]`, a list of records to
 * `ARG.<name>[i].<field>`). The layout is in this one place, and tested once.
 *
 * ARGV starts with the length of each list, in declaration order (key lists,
 * then argument lists); then the single arguments; then each argument list's
 * records, field by field.
 */

type Value = string | number;

export interface ScriptSpec<
  K extends string,
  KL extends string,
  A extends string,
  AL extends Record<string, readonly string[]>,
> {
  keys: readonly K[];
  keyLists?: readonly KL[];
  args: readonly A[];
  argLists?: AL;
  /** The script's own Lua, which reads KEY and ARG. */
  body: string;
}

export interface ScriptValues<
  K extends string,
  KL extends string,
  A extends string,
  AL extends Record<string, readonly string[]>,
> {
  keys: Record<K, string>;
  keyLists?: Record<KL, readonly string[]>;
  args: Record<A, Value>;
  argLists?: { [L in keyof AL]: ReadonlyArray<Record<AL[L][number], Value>> };
}

export interface Script<
  K extends string,
  KL extends string,
  A extends string,
  AL extends Record<string, readonly string[]>,
> {
  /** The whole script: the binding prologue, then the body. */
  readonly lua: string;
  /** The number of keys, then KEYS and ARGV, as ioredis's custom commands take them. */
  layout(values: ScriptValues<K, KL, A, AL>): [number, ...Value[]];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkNames(names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (!NAME.test(name)) throw new Error(`script argument name ${JSON.stringify(name)} is not a Lua identifier`);
    if (seen.has(name)) throw new Error(`script argument name ${name} is declared twice`);
    seen.add(name);
  }
}

export function defineScript<
  const K extends string,
  const KL extends string = never,
  const A extends string = never,
  const AL extends Record<string, readonly string[]> = Record<never, never>,
>(spec: ScriptSpec<K, KL, A, AL>): Script<K, KL, A, AL> {
  const keyLists = spec.keyLists ?? [];
  const argLists = Object.entries(spec.argLists ?? {}) as Array<[string, readonly string[]]>;
  checkNames([...spec.keys, ...keyLists]);
  checkNames([...spec.args, ...argLists.map(([name]) => name)]);
  for (const [, fields] of argLists) checkNames(fields);

  const header = keyLists.length + argLists.length;
  const lines = ['local KEY, ARG = {}, {}'];
  spec.keys.forEach((name, i) => lines.push(`KEY.${name} = KEYS[${i + 1}]`));
  lines.push(`local k, a = ${spec.keys.length}, ${header}`);
  keyLists.forEach((name, i) => {
    lines.push(
      `do local n, l = tonumber(ARGV[${i + 1}]), {}; for i = 1, n do l[i] = KEYS[k + i] end; KEY.${name} = l; k = k + n end`,
    );
  });
  spec.args.forEach((name, i) => lines.push(`ARG.${name} = ARGV[a + ${i + 1}]`));
  lines.push(`a = a + ${spec.args.length}`);
  argLists.forEach(([name, fields], j) => {
    const record = fields.map((f, i) => `${f} = ARGV[a + ${i + 1}]`).join(', ');
    lines.push(
      `do local n, l = tonumber(ARGV[${keyLists.length + j + 1}]), {}; for i = 1, n do l[i] = { ${record} }; a = a + ${fields.length} end; ARG.${name} = l end`,
    );
  });
  const lua = `${lines.join('\n')}\n${spec.body}`;

  return {
    lua,
    layout(values) {
      const keys: string[] = spec.keys.map((name) => required(values.keys[name], `key ${name}`));
      const lengths: Value[] = [];
      const lists = (values.keyLists ?? {}) as Record<string, readonly string[]>;
      for (const name of keyLists) {
        const list = required(lists[name], `key list ${name}`);
        lengths.push(list.length);
        keys.push(...list);
      }
      const recordLists = (values.argLists ?? {}) as Record<string, ReadonlyArray<Record<string, Value>>>;
      const tail: Value[] = [];
      for (const [name, fields] of argLists) {
        const records = required(recordLists[name], `argument list ${name}`);
        lengths.push(records.length);
        for (const record of records) for (const f of fields) tail.push(required(record[f], `${name}.${f}`));
      }
      const args = spec.args.map((name) => required((values.args as Record<string, Value>)[name], `argument ${name}`));
      return [keys.length, ...keys, ...lengths, ...args, ...tail];
    },
  };
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`script call is missing ${what}`);
  return value;
}
