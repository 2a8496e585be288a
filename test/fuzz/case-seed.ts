// Case (seed, index) → one generated fuzz case, independent of every other index (so a failing case reproduces
// alone, and a run can resume after a hang at index + 1).
import fc from 'fast-check';
import { fuzzCaseArb, type FuzzCase } from './protocol-case.ts';

export function caseSeed(seed: number, index: number): number {
  return (Math.imul(seed | 0, 0x9e3779b1) + Math.imul(index, 0x85ebca6b)) | 0;
}

export function generateCase(seed: number, index: number): FuzzCase {
  return fc.sample(fuzzCaseArb, { seed: caseSeed(seed, index), numRuns: 1 })[0];
}
