import { describe, expect, it } from 'vitest';
import { DelimiterScanner } from '../../src/http/closing-boundary.js';

const scan = (chunks: string[]) => {
  const scanner = new DelimiterScanner('--xyz--');
  for (const chunk of chunks) scanner.push(Buffer.from(chunk));
  return scanner.seen;
};

describe('DelimiterScanner', () => {
  it('finds the delimiter inside a chunk and split over two or more chunks', () => {
    expect(scan(['data\r\n--xyz--\r\n'])).toBe(true);
    expect(scan(['data\r\n--x', 'yz--'])).toBe(true);
    expect(scan(['data\r\n-', '-', 'x', 'y', 'z-', '-'])).toBe(true);
    expect(scan(['--xyz-', '-epilogue'])).toBe(true);
  });

  it('does not find a body that stops before the delimiter ends', () => {
    expect(scan(['data\r\n--xyz-'])).toBe(false);
    expect(scan(['--xyz', '\r\n--xy'])).toBe(false);
    expect(scan([])).toBe(false);
  });
});
