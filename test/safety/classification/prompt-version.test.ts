/** The prompt version follows everything the model is given besides the text, with nothing to bump by hand. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  ASSESSMENT_TOOL,
  buildUserMessage,
  PROMPT_VERSION,
  promptVersion,
  SYSTEM_PROMPT,
} from '../../../src/safety/classification/prompt.js';
import { CATEGORIES } from '../../../src/safety/classification/categories.js';

const current = { system: SYSTEM_PROMPT, tool: ASSESSMENT_TOOL, categories: CATEGORIES, message: buildUserMessage };

describe('PROMPT_VERSION', () => {
  it('is the digest of the current prompt, tool, categories and message', () => {
    expect(PROMPT_VERSION).toMatch(/^safety-[0-9a-f]{12}$/);
    expect(promptVersion(current)).toBe(PROMPT_VERSION);
  });

  it('changes when any part changes', () => {
    const changed = [
      { ...current, system: `${SYSTEM_PROMPT} ` },
      { ...current, tool: { ...ASSESSMENT_TOOL, description: `${ASSESSMENT_TOOL.description}!` } },
      {
        ...current,
        tool: { ...ASSESSMENT_TOOL, input_schema: { ...ASSESSMENT_TOOL.input_schema, required: [] } },
      },
      { ...current, categories: [...CATEGORIES, 'new_category'] },
      { ...current, categories: [...CATEGORIES].reverse() },
      {
        ...current,
        message: (text: string, label: string) => ({
          content: buildUserMessage(text, label).content.replace('<', '< '),
        }),
      },
      // A change of how the text is neutralised: the probe's forged close tag left as it is.
      {
        ...current,
        message: (text: string, label: string) => ({ content: `<TEXT label="${label}">\n${text}\n</TEXT>` }),
      },
    ];
    const versions = changed.map((parts) => promptVersion(parts));
    for (const v of versions) expect(v).not.toBe(PROMPT_VERSION);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('is the same in every process, though each quotes under a key of its own', () => {
    const script =
      "import('./src/safety/classification/prompt.ts').then((m) => process.stdout.write(m.PROMPT_VERSION))";
    const other = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    expect(other).toBe(PROMPT_VERSION);
    // The message itself differs between processes: its boundary hash is keyed.
    const probe =
      "import('./src/safety/classification/prompt.ts').then((m) => process.stdout.write(m.buildUserMessage('x', 'l').content))";
    const message = execFileSync(process.execPath, ['--import', 'tsx', '-e', probe], { encoding: 'utf8' });
    expect(message).not.toBe(buildUserMessage('x', 'l').content);
  });
});
