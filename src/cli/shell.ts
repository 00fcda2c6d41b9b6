/**
 * A command line written back as a POSIX shell reads it, for a message that
 * tells the user what to type next. One line whatever the arguments hold: a
 * newline or another control character is written `$'\n'` (bash, zsh, ksh).
 */
export function shellCommand(args: readonly string[]): string {
  return args.map(shellWord).join(' ');
}

function shellWord(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u001f\u007f]/.test(arg)) return `'${arg.replace(/'/g, `'\\''`)}'`;
  // eslint-disable-next-line no-control-regex
  const escaped = arg.replace(/[\\'\u0000-\u001f\u007f]/g, (c) =>
    c === '\\' || c === "'" ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return `$'${escaped}'`;
}
