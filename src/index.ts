/** The package's main entry: the public API of each layer of the defence. */
export * from './safety/quoting/index.js';
