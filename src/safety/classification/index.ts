/** Layer 2's pure logic: categories, the action rule, windows, the prompt. No I/O. */
export * from './categories.js';
export * from './assessment.js';
export * from './verdict.js';
export * from './policy.js';
export * from './windows.js';
export * from './prompt.js';
