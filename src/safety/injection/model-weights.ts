// Written by scripts/train-injection-model.ts; do not edit.
export const BIAS = -20;
export const SCALE = 0;
export const WEIGHTS = '';
