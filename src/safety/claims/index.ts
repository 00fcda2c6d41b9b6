/** Claim support's pure logic: sentences, the passage, the prompt, the verdict. No I/O. */
export * from './verdict.js';
export * from './sentences.js';
export * from './window.js';
export * from './prompt.js';
export * from './decide.js';
